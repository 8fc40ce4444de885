import { getLocation, type Node } from 'jsonc-parser';
import type { Catalogs } from '../contract/index.js';
import { formulaFunctions } from '../formula/functions.js';
import { analysisTypeOf, describeEntry } from './catalog-lookups.js';
import { nodeAtPath, type Span } from './json-text.js';
import { schemaAt } from './template-schema.js';
import type { TemplateAnalysis } from './template-findings.js';

export interface Completion {
  label: string;
  kind: 'field' | 'value' | 'band' | 'scalar' | 'function';
  detail?: string;
  documentation?: string;
  /** What replaces `replace` in the text. */
  newText: string;
  replace: Span;
}

type Path = Array<string | number>;

/** What may be written at `offset` of a template: field names, enum and catalog values, formula names. */
export function templateCompletions(analysis: TemplateAnalysis, offset: number, catalogs: Catalogs): Completion[] {
  const { text, root } = analysis;
  const location = getLocation(text, offset);
  const previous = location.previousNode;
  const inString = previous?.type === 'string' && offset > previous.offset && offset <= previous.offset + previous.length;
  // Inside quotes the text between them is replaced (editors that insert at the cursor, such
  // as Neovim's omnifunc, then keep one pair of quotes); elsewhere a quoted value is inserted.
  const closed = inString && previous.length >= 2 && text[previous.offset + previous.length - 1] === '"' && offset < previous.offset + previous.length;
  const replace: Span = inString ? { offset: previous.offset + 1, length: previous.length - (closed ? 2 : 1) } : { offset, length: 0 };
  const written = (label: string) => (inString ? JSON.stringify(label).slice(1, -1) : JSON.stringify(label));
  const path = location.path;
  if (location.isAtPropertyKey) return fieldCompletions(root, path.slice(0, -1)).map((completion) => ({ ...completion, newText: written(completion.label), replace }));
  if (path[0] === 'formula' && path.length === 1 && inString) return formulaCompletions(text, offset, catalogs);
  return valueCompletions(root, path, catalogs).map((completion) => ({ ...completion, newText: written(completion.label), replace }));
}

function fieldCompletions(root: Node | undefined, objectPath: Path): Value[] {
  const properties = schemaAt(objectPath)?.properties ?? {};
  const object = root ? nodeAtPath(root, objectPath.join('.')) : undefined;
  const present = new Set(object?.complete && object.node.type === 'object' ? (object.node.children ?? []).map((property) => property.children?.[0]?.value as string) : []);
  return Object.entries(properties)
    .filter(([field]) => !present.has(field))
    .map(([field, schema]) => ({ label: field, kind: 'field' as const, ...(schema.description ? { documentation: schema.description } : {}) }));
}

type Value = Omit<Completion, 'newText' | 'replace'>;

/** Values for the field at `path`: its schema's enum, or what the catalogs allow there. */
function valueCompletions(root: Node | undefined, path: Path, catalogs: Catalogs): Value[] {
  const field = path[0];
  const analysisType = analysisTypeOf(root);
  if (field === 'reportType' && path.length === 1) {
    if (!analysisType) return [];
    return catalogs.reportTypes[analysisType].map((entry) => ({ label: entry.key, kind: 'value', detail: `${entry.label.en} · ${entry.label.es}`, documentation: describeEntry(entry) }));
  }
  if (field === 'selectedStatistics' && path.length === 2) {
    if (!analysisType) return [];
    const chosen = new Set(selectedStatistics(root));
    return catalogs.statistics[analysisType].filter((statistic) => !chosen.has(statistic)).map((statistic) => ({ label: statistic, kind: 'value', detail: `${analysisType} statistic` }));
  }
  if (field === 'indexName' && path.length === 1) {
    return catalogs.vegetationIndexDefaults.indexNames.map((name) => ({ label: name, kind: 'value', detail: 'vegetation index' }));
  }
  const values = schemaAt(path)?.enum ?? [];
  return values.filter((value): value is string => typeof value === 'string').map((value) => ({ label: value, kind: 'value' }));
}

function selectedStatistics(root: Node | undefined): string[] {
  const found = root ? nodeAtPath(root, 'selectedStatistics') : undefined;
  if (!found?.complete || found.node.type !== 'array') return [];
  return (found.node.children ?? []).filter((item) => item.type === 'string').map((item) => item.value as string);
}

/** Inside a formula: the bands, scalars and functions the catalog allows, for the name being typed. */
function formulaCompletions(text: string, offset: number, catalogs: Catalogs): Completion[] {
  let start = offset;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1]!)) start -= 1;
  const replace = { offset: start, length: offset - start };
  const custom = catalogs.vegetationIndexDefaults.customFormula;
  const arity = (name: string) => formulaFunctions.find((entry) => entry.name === name)?.arity ?? 1;
  return [
    ...custom.allowedBands.map((band) => ({ label: band, kind: 'band' as const, detail: 'band', newText: band, replace })),
    ...custom.allowedScalars.map((scalar) => ({
      label: scalar,
      kind: 'scalar' as const,
      detail: scalar === 'L' ? 'scalar: the soil factor (a template using it needs saviL)' : 'scalar',
      newText: scalar,
      replace,
    })),
    ...custom.allowedFunctions.map((name) => ({ label: name, kind: 'function' as const, detail: `function of ${arity(name)} argument${arity(name) === 1 ? '' : 's'}`, newText: `${name}(`, replace })),
  ];
}
