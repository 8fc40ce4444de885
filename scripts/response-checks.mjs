// Generates src/client/generated/response-checks.js (+ .d.ts): one module of plain functions,
// one a check, that check a body against the contract's schemas (src/contract/client-schemas.ts)
// without loading zod, so a network command's start-up does not build the schemas. A schema
// two checks share (a page's items, a layout, a colour scale) is one function both call.
// zod stays the oracle: the client runs the real schema whenever a check refuses a body. A
// check may refuse more than its schema, never less, so this script refuses (throws) on
// anything JSON Schema cannot say faithfully.
// The solved part is a library's: zod's JSON Schema and ajv's standalone code.
// Run: npm run response-checks          (--check exits 1 when the committed files differ)
import Ajv, { _ } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { importSource } from './import-src.mjs';

export const OUT_DIR = fileURLToPath(new URL('../src/client/generated/', import.meta.url));
export const OUT_JS = join(OUT_DIR, 'response-checks.js');
export const OUT_DTS = join(OUT_DIR, 'response-checks.d.ts');

/** The contract, with its own zod (the registries must be that zod's). */
const loadContract = () =>
  importSource(`
export { z } from 'zod';
export { checkedSchemas } from './src/contract/client-schemas.ts';
export { expressedBy } from './src/contract/refinement-keywords.ts';
`);

/**
 * The keywords the contract may declare for a refinement (refinement-keywords.ts) that JSON Schema has
 * no word for. Each fails exactly where the refinement in src/contract/catalogs.ts adds an issue.
 */
const CUSTOM_KEYWORDS = [
  {
    // layoutElement: x + width and y + height at most 1, with the same tolerance.
    keyword: 'elementFitsPage',
    type: 'object',
    schemaType: 'boolean',
    code: (cxt) => {
      const d = cxt.data;
      cxt.fail(_`!(${d}.x + ${d}.width <= 1 + 1e-9 && ${d}.y + ${d}.height <= 1 + 1e-9)`);
    },
  },
  {
    // colorScale: stop values strictly ascending.
    keyword: 'stopsAscend',
    type: 'object',
    schemaType: 'boolean',
    code: (cxt) => {
      const stops = _`${cxt.data}.stops`;
      // Refuses (never throws on) stops that are not objects with a number: zod refuses those too.
      cxt.fail(_`!Array.isArray(${stops}) || ${stops}.some((stop, i) => typeof stop?.value !== 'number' || (i > 0 && !(stop.value > ${stops}[i - 1].value)))`);
    },
  },
  {
    // A free-form element property: at most this many characters as JSON.
    keyword: 'maxJsonLength',
    schemaType: 'number',
    code: (cxt) => {
      cxt.fail(_`(JSON.stringify(${cxt.data})?.length ?? 0) > ${cxt.schema}`);
    },
  },
];
const CUSTOM_NAMES = new Set(CUSTOM_KEYWORDS.map((definition) => definition.keyword));

/** zod types whose JSON Schema says all they check (given the checks below). */
const FAITHFUL_TYPES = new Set(['object', 'array', 'string', 'number', 'boolean', 'null', 'unknown', 'any', 'enum', 'literal', 'optional', 'nullable', 'union', 'record']);
/** zod checks JSON Schema states exactly (string lengths in UTF-16 units, as ajv with unicode: false). */
const FAITHFUL_CHECKS = new Set(['min_length', 'max_length', 'length_equals', 'greater_than', 'less_than']);
/** Keywords that only describe; any other a .meta() sets must not loosen what zod emits. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'deprecated', 'id', 'format']);

class Unfaithful extends Error {}

/**
 * Called by z.toJSONSchema for every zod schema it writes: refuses what the JSON cannot say,
 * and adds the keywords the contract declared for a refinement.
 */
function faithful(z, expressedBy) {
  const bare = z.registry();
  // A .meta() copy is written through its original: a declaration on the copy covers it.
  const undeclared = new Map();
  const covered = new Set();
  const override = ({ zodSchema, jsonSchema, path }) => {
    const def = zodSchema._zod.def;
    const at = `${path.length > 0 ? path.join('/') : 'a schema'}: a zod ${def.type}`;
    if (!FAITHFUL_TYPES.has(def.type)) throw new Unfaithful(`${at} (transform, pipe, default, lazy… cannot be checked without zod)`);
    if (def.coerce) throw new Unfaithful(`${at} coerces its input`);
    const declared = expressedBy.get(zodSchema)?.keywords;
    if (declared) for (let parent = zodSchema; parent; parent = parent._zod.parent) covered.add(parent);
    for (const check of def.checks ?? []) {
      const kind = check._zod.def.check;
      if (FAITHFUL_CHECKS.has(kind)) continue;
      if (kind === 'number_format') {
        if (!['safeint', 'int32', 'uint32'].includes(check._zod.def.format)) throw new Unfaithful(`${at} has number format ${check._zod.def.format}`);
        continue;
      }
      if (kind === 'string_format') {
        const pattern = check._zod.def.pattern;
        const emitted = [jsonSchema.pattern, ...(jsonSchema.allOf ?? []).map((part) => part.pattern)];
        if (!pattern || pattern.flags !== '' || !emitted.includes(pattern.source)) {
          throw new Unfaithful(`${at} has a ${check._zod.def.format} check without an emitted pattern`);
        }
        continue;
      }
      if (kind === 'custom') {
        undeclared.set(zodSchema, `${at} has a refinement JSON Schema does not express; declare its keywords with expressedAs (src/contract/refinement-keywords.ts)`);
        continue;
      }
      throw new Unfaithful(`${at} has a ${kind} check that JSON Schema does not express`);
    }
    if (def.type === 'object') {
      const required = new Set(jsonSchema.required ?? []);
      for (const [key, property] of Object.entries(def.shape)) {
        if (property._zod.optin !== 'optional' && !required.has(key)) throw new Unfaithful(`${at}: ${key} is required by zod but not by its JSON Schema`);
      }
    }
    const meta = z.globalRegistry.get(zodSchema);
    if (meta) {
      const own = z.toJSONSchema(zodSchema, { io: 'input', metadata: bare, unrepresentable: 'any' });
      for (const key of Object.keys(meta)) {
        if (ANNOTATIONS.has(key) || !(key in own) || key === 'required' || isDeepStrictEqual(own[key], meta[key])) continue;
        throw new Unfaithful(`${at}: .meta() replaces zod's ${key}`);
      }
    }
    for (const [keyword, value] of Object.entries(declared ?? {})) {
      if (keyword in jsonSchema && !isDeepStrictEqual(jsonSchema[keyword], value)) throw new Unfaithful(`${at}: ${keyword} is declared twice, differently`);
      jsonSchema[keyword] = value;
    }
  };
  const finish = () => {
    for (const [schema, problem] of undeclared) if (!covered.has(schema)) throw new Unfaithful(problem);
  };
  return { override, finish };
}

const SHARED = '__shared';

/** Rewrites every `$ref` in `node` through `to` (a $ref's text to the new one, or undefined to keep it). */
function rewriteRefs(node, to) {
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') node[key] = to(value) ?? value;
    else rewriteRefs(value, to);
  }
}

/** A definition too small for a function of its own: no subschema, nothing to share. */
const isLeaf = (definition) =>
  !JSON.stringify(definition).includes('"$ref"') && !['object', 'array'].includes(definition.type) && !Object.keys(definition).some((key) => /Of$|^(not|if|items|properties)$/.test(key));

/** Replaces each `{ $ref }` to a leaf definition with a copy of it (ajv then knows, say, an array's items are strings); true if it did. */
function inlineLeaves(node, definitions) {
  if (typeof node !== 'object' || node === null) return false;
  let changed = false;
  for (const [key, value] of Object.entries(node)) {
    const leaf = typeof value?.$ref === 'string' && Object.hasOwn(definitions, value.$ref) ? definitions[value.$ref] : undefined;
    if (leaf && isLeaf(leaf) && Object.keys(value).every((keyword) => keyword === '$ref' || !(keyword in leaf))) {
      const { $ref: _, ...rest } = value;
      node[key] = { ...structuredClone(leaf), ...rest };
      changed = true;
    } else {
      changed = inlineLeaves(value, definitions) || changed;
    }
  }
  return changed;
}

/**
 * Every check's JSON Schema, converted together, and the definitions they share, each a schema
 * of its own (so ajv makes one function of it, whichever check refers to it): a checked schema
 * another uses (a page's items) is a `$ref` to it; any other zod schema used more than once, or
 * a copy that converts to the same JSON (the lenient layout a template and the catalog each
 * build), is one shared definition. Leaves are inlined again: a call would cost more than
 * their check.
 */
function jsonSchemas({ z, checkedSchemas, expressedBy }) {
  const registry = z.registry();
  for (const [name, schema] of Object.entries(checkedSchemas)) registry.add(schema, { id: name });
  const check = faithful(z, expressedBy);
  const { schemas } = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'throw', reused: 'ref', uri: (id) => id, override: check.override });
  check.finish();
  const { [SHARED]: shared, ...checks } = schemas;
  const definitions = shared?.$defs ?? {};
  for (const id of Object.keys(definitions)) if (Object.hasOwn(checks, id)) throw new Error(`a check is named ${id}, as a shared definition is`);
  const prefix = `${SHARED}#/$defs/`;
  rewriteRefs([checks, definitions], (ref) => (ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined));
  // Merge definitions that say the same, and follow those that only refer to another, until none do.
  for (;;) {
    const first = new Map();
    const rename = new Map();
    for (const [id, definition] of Object.entries(definitions)) {
      const text = JSON.stringify(definition);
      if (Object.keys(definition).length === 1 && typeof definition.$ref === 'string') rename.set(id, definition.$ref);
      else if (first.has(text)) rename.set(id, first.get(text));
      else first.set(text, id);
    }
    if (rename.size === 0) break;
    for (const id of rename.keys()) delete definitions[id];
    rewriteRefs([checks, definitions], (ref) => rename.get(ref));
  }
  // A definition that refers to a leaf may become one: again until nothing changes.
  while (inlineLeaves([checks, definitions], definitions));
  return Object.entries({ ...checks, ...definitions }).map(([id, json]) => {
    const { $schema: _, ...rest } = json;
    return { ...rest, $id: id };
  });
}

const HEADER = `// Generated by scripts/response-checks.mjs from src/contract/client-schemas.ts: do not edit.
// Run \`npm run response-checks\` after changing the contract (a test fails while this is stale).
`;

/**
 * The checks of `contract.checkedSchemas` as one module's text, each exported by its name;
 * throws when a schema has something JSON Schema cannot say (a check would then accept what
 * zod refuses).
 */
export function checkModule(contract) {
  // Draft 7's vocabulary, all zod's JSON Schema uses here (ajv stops on any other keyword), and
  // without 2020's tracking of evaluated properties: functions that call nothing of their own
  // at load, so the build can keep only a check's own (one file a check).
  const ajv = new Ajv({
    schemas: jsonSchemas(contract),
    code: { source: true, esm: true, lines: true },
    // zod counts a string's length in UTF-16 units (as unicode: false does; ajv calls the
    // option deprecated but keeps it) and runs its patterns without the u flag.
    unicode: false,
    logger: { log() {}, warn: (message) => /option unicode/.test(message) || console.warn(message), error: console.error },
    unicodeRegExp: false,
    // Formats are not checked here: zod's checks are, through the patterns it emits.
    validateFormats: false,
    allErrors: false,
    // A caller needs the verdict only: no messages, and a shared schema a function of its own.
    messages: false,
    inlineRefs: false,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    keywords: CUSTOM_KEYWORDS,
  });
  const source = standaloneCode(ajv, Object.fromEntries(Object.keys(contract.checkedSchemas).map((name) => [name, name])));
  const loads = /.*(\brequire\s*\(|\bimport\s*[({]|\bimport\s+\w).*/.exec(source);
  if (loads) throw new Error(`the generated checks would load a module at run time: ${loads[0].slice(0, 200)}`);
  return source;
}

/** Every generated file's text, by path. */
export async function generateResponseChecks() {
  const contract = await loadContract();
  const module = checkModule(contract);
  for (const keyword of CUSTOM_NAMES) if (!module.includes(keyword)) throw new Error(`no schema uses the keyword ${keyword} any more: remove it`);
  const names = Object.keys(contract.checkedSchemas);
  const dts = `${HEADER}${names.map((name) => `/** The check of \`checkedSchemas.${name}\`: true only for a body it accepts (it may refuse more). */\nexport declare function ${name}(body: unknown): boolean;\n`).join('')}`;
  return { [OUT_JS]: `${HEADER}${module.trimEnd()}\n`, [OUT_DTS]: dts };
}

/** Files in the generated folder that the generator does not make. */
export function leftOver(files) {
  return existsSync(OUT_DIR) ? readdirSync(OUT_DIR).map((file) => join(OUT_DIR, file)).filter((file) => !(file in files)) : [];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await generateResponseChecks();
  if (process.argv.includes('--check')) {
    const stale = Object.entries(files).filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
    for (const [file] of stale) console.error(`${file} is stale: run npm run response-checks`);
    const left = leftOver(files);
    for (const file of left) console.error(`${file} is not the generator's: run npm run response-checks`);
    process.exitCode = stale.length > 0 || left.length > 0 ? 1 : 0;
  } else {
    mkdirSync(OUT_DIR, { recursive: true });
    for (const file of leftOver(files)) rmSync(file, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
    console.log(`wrote ${OUT_JS} and ${OUT_DTS}`);
  }
}
