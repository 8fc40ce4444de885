// Generates src/client/generated/checks/<name>.js, one module per check, and the index
// src/client/generated/checks.js (+ .d.ts), which gives each as a loader: plain functions that check a body
// against the contract's schemas (src/contract/client-schemas.ts) without loading zod, so a network
// command's start-up does not build the schemas. zod stays the oracle: the client runs the
// real schema whenever a check refuses a body. A check may refuse more than its schema,
// never less, so this script refuses (throws) on anything JSON Schema cannot say faithfully.
// The solved part is a library's: zod's JSON Schema and ajv's standalone code.
// Run: npm run response-checks          (--check exits 1 when the committed files differ)
import Ajv2020, { _ } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { importSource } from './import-src.mjs';

export const OUT_JS = fileURLToPath(new URL('../src/client/generated/checks.js', import.meta.url));
export const OUT_DTS = fileURLToPath(new URL('../src/client/generated/checks.d.ts', import.meta.url));
/** One module per check: a command reads only the checks it uses (scripts/build.mjs). */
export const OUT_DIR = fileURLToPath(new URL('../src/client/generated/checks/', import.meta.url));

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
function faithful(z, expressedBy, where) {
  const bare = z.registry();
  // A .meta() copy is written through its original: a declaration on the copy covers it.
  const undeclared = new Map();
  const covered = new Set();
  const override = ({ zodSchema, jsonSchema }) => {
    const def = zodSchema._zod.def;
    const at = `${where}: a zod ${def.type}`;
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

/** Each schema's JSON Schema, a shared one (a page's items) as a $ref to it. */
function jsonSchemas({ z, checkedSchemas, expressedBy }) {
  const byInstance = new Map(Object.entries(checkedSchemas).map(([name, schema]) => [schema, name]));
  return Object.entries(checkedSchemas).map(([name, schema]) => {
    const check = faithful(z, expressedBy, name);
    const json = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'throw',
      override(context) {
        check.override(context);
        const shared = byInstance.get(context.zodSchema);
        if (shared !== undefined && shared !== name) {
          for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
          context.jsonSchema.$ref = shared;
        }
      },
    });
    check.finish();
    delete json.$schema;
    return { ...json, $id: name };
  });
}

const HEADER = `// Generated by scripts/response-checks.mjs from src/contract/client-schemas.ts: do not edit.
// Run \`npm run response-checks\` after changing the contract (a test fails while this is stale).
`;

/**
 * The checks of `contract.checkedSchemas`, each as a module's text by name; throws when a
 * schema has something JSON Schema cannot say (a check would then accept what zod refuses).
 */
export function checkModules(contract) {
  const ajv = new Ajv2020({
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
    // A caller needs the verdict only: no messages, and a shared schema (a page's items) a
    // function of its own.
    messages: false,
    inlineRefs: false,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    keywords: CUSTOM_KEYWORDS,
  });
  return Object.fromEntries(
    Object.keys(contract.checkedSchemas).map((name) => {
      // Each module holds its check and the shared ones it refers to.
      const source = standaloneCode(ajv, { [name]: name });
      const loads = /.*(\brequire\s*\(|\bimport\s*[({]|\bimport\s+\w).*/.exec(source);
      if (loads) throw new Error(`the generated checks would load a module at run time: ${loads[0].slice(0, 200)}`);
      return [name, source];
    }),
  );
}

/** Every generated file's text, by path. */
export async function generateResponseChecks() {
  const contract = await loadContract();
  const modules = checkModules(contract);
  const all = Object.values(modules).join('\n');
  for (const keyword of CUSTOM_NAMES) if (!all.includes(keyword)) throw new Error(`no schema uses the keyword ${keyword} any more: remove it`);
  const names = Object.keys(modules);
  const index = [
    HEADER,
    '// Each check as a function that returns it: the build makes every module below a file of\n',
    '// its own, read on the first call of its loader (scripts/build.mjs).\n',
    ...names.map((name) => `import { ${name} as ${name}Check } from './checks/${name}.js';\n`),
    ...names.map((name) => `export const ${name} = () => ${name}Check;\n`),
  ].join('');
  const dts = `${HEADER}${names.map((name) => `/** The check of \`checkedSchemas.${name}\`: true only for a body it accepts (it may refuse more). */\nexport declare function ${name}(): (body: unknown) => boolean;\n`).join('')}`;
  return {
    [OUT_JS]: index,
    [OUT_DTS]: dts,
    ...Object.fromEntries(names.map((name) => [join(OUT_DIR, `${name}.js`), `${HEADER}${modules[name]}\n`])),
  };
}

/** Generated files on disk that the generator no longer makes (a check taken out of the contract). */
export function leftOver(files) {
  return existsSync(OUT_DIR) ? readdirSync(OUT_DIR).map((file) => join(OUT_DIR, file)).filter((file) => !(file in files)) : [];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await generateResponseChecks();
  if (process.argv.includes('--check')) {
    const stale = Object.entries(files).filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
    for (const [file] of stale) console.error(`${file} is stale: run npm run response-checks`);
    const left = leftOver(files);
    for (const file of left) console.error(`${file} is no check's any more: run npm run response-checks`);
    process.exitCode = stale.length > 0 || left.length > 0 ? 1 : 0;
  } else {
    mkdirSync(OUT_DIR, { recursive: true });
    for (const file of leftOver(files)) rmSync(file);
    for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
    console.log(`wrote ${Object.keys(files).length} files: ${OUT_JS}, ${OUT_DTS} and ${OUT_DIR}*.js`);
  }
}
