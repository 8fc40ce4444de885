// Where serve decides what the specification leaves open: what it guesses (a shape the
// specification does not show) and what it refuses although the specification does not say
// the real service does. One registry: the OpenAPI document marks each where a client reads
// it (an `x-reportctl-decisions` entry and a sentence in the description), and
// docs/decisions.md labels each by its id (a test holds both to this list).
import type { OperationId } from './endpoints.js';

export type DecisionKind = 'guess' | 'stricter';

/** A place in the OpenAPI document: an operation, a parameter, a field of a body or a response, or a shared error response. */
export type Mark =
  | { operation: OperationId; parameter?: string }
  | { operation: OperationId; request: string }
  | { operation: OperationId; response: number; field?: string }
  | { errorResponse: number };

export interface Decision {
  id: string;
  kind: DecisionKind;
  /** What a client's author should know, in one sentence. */
  note: string;
  marks: readonly Mark[];
}

const LISTS: readonly OperationId[] = ['listTemplates', 'listPresets', 'listQueues', 'listQueueRuns', 'listAnalyses'];
/** A field of the template body, where clients write it. */
const written = (field: string): Mark[] => (['createTemplate', 'replaceTemplate'] as const).map((operation) => ({ operation, request: field }));
/** A field of the template, where clients write it and where they read it. */
const everywhere = (field: string): Mark[] => [
  ...written(field),
  { operation: 'getTemplate', response: 200, field },
  { operation: 'createTemplate', response: 201, field },
  { operation: 'replaceTemplate', response: 200, field },
  { operation: 'listTemplates', response: 200, field: `data[].${field}` },
];

export const decisions: readonly Decision[] = [
  // Guesses: shapes the specification does not show.
  { id: 'vegetation-index-fields', kind: 'guess', note: 'the specification does not say where a template keeps its index, formula and colour scale; these top-level fields are ours', marks: [...everywhere('indexName'), ...everywhere('formula')] },
  { id: 'colour-scale', kind: 'guess', note: 'the specification shows no colour scale: this field and its stops are ours', marks: everywhere('colorScale') },
  { id: 'layout-shape', kind: 'guess', note: 'the specification shows only coordinates from 0 to 1: portrait and landscape, elements and their types are ours', marks: everywhere('layouts') },
  { id: 'statistics-catalog', kind: 'guess', note: 'the specification does not show the statistics catalog: one list per analysis type is ours', marks: [{ operation: 'listStatistics', response: 200 }] },
  { id: 'preset-fields', kind: 'guess', note: "the specification shows a preset's seedPayload only: its other fields are ours", marks: [{ operation: 'listPresets', response: 200, field: 'data[]' }] },
  { id: 'presets-paging', kind: 'guess', note: 'the specification shows neither the presets envelope nor their paging: the list envelope, page and limit are ours', marks: [{ operation: 'listPresets', response: 200 }, { operation: 'listPresets', parameter: 'page' }, { operation: 'listPresets', parameter: 'limit' }] },
  { id: 'queue-fields', kind: 'guess', note: "the specification shows a queue's steps only: its other fields are ours", marks: [{ operation: 'listQueues', response: 200, field: 'data[]' }] },
  { id: 'queue-run-times', kind: 'guess', note: "the specification does not show a run's createdAt, startedAt and finishedAt", marks: ['createdAt', 'startedAt', 'finishedAt'].map((field) => ({ operation: 'listQueueRuns' as const, response: 200, field: `data[].${field}` })) },
  { id: 'analysis-fields', kind: 'guess', note: 'the specification does not show an analysis: these fields are ours', marks: [{ operation: 'listAnalyses', response: 200, field: 'data[]' }, { operation: 'searchAnalysesV0', response: 200, field: 'data[]' }] },
  { id: 'v0-paging', kind: 'guess', note: 'the specification does not say how the deprecated listing pages: page and limit in the body are ours', marks: [{ operation: 'searchAnalysesV0', request: 'page' }, { operation: 'searchAnalysesV0', request: 'limit' }] },
  { id: 'replace-response', kind: 'guess', note: "the specification does not show PUT's response: the stored template is ours", marks: [{ operation: 'replaceTemplate', response: 200 }] },
  { id: 'delete-response', kind: 'guess', note: "the specification shows neither DELETE's status nor its body: 204 and no body are ours", marks: [{ operation: 'deleteTemplate', response: 204 }] },
  { id: 'formula-errors', kind: 'guess', note: 'the specification does not show an invalid formula\'s response: errors, with offset and length, are ours', marks: [{ operation: 'validateFormula', response: 200, field: 'errors' }] },
  { id: 'validate-formula-counted-as-write', kind: 'guess', note: 'the specification does not say whether checking a formula counts as a read or a write: serve counts it as a write', marks: [{ operation: 'validateFormula' }] },
  { id: 'error-codes', kind: 'guess', note: 'the specification names only VALIDATION_FAILED: this code and status are ours', marks: [401, 403, 404, 405, 408, 413, 415, 429, 500, 502, 503, 504].map((status) => ({ errorResponse: status })) },
  // Stricter than the specification: what serve refuses that the real service may accept.
  { id: 'paper-size', kind: 'stricter', note: 'serve takes only letter, legal, a4 and a3', marks: written('paperSize') },
  { id: 'unique-statistics', kind: 'stricter', note: 'serve refuses a statistic named twice', marks: written('selectedStatistics') },
  { id: 'margins', kind: 'stricter', note: 'serve needs all four margins, each a number of 0 or more, and no other key', marks: written('margins') },
  { id: 'name-length', kind: 'stricter', note: 'serve takes names of 1 to 200 characters, without control characters', marks: written('name') },
  { id: 'map-resolution', kind: 'stricter', note: 'serve takes 72 to 1200', marks: written('mapResolution') },
  { id: 'savi-l-range', kind: 'stricter', note: 'serve takes 0 to 1', marks: written('saviL') },
  { id: 'layout-strictness', kind: 'stricter', note: 'serve refuses an element type it does not know, an element past the page (x + width or y + height over 1), more than 200 elements an orientation, a layout with neither orientation, and other keys', marks: written('layouts') },
  { id: 'unknown-fields', kind: 'stricter', note: 'serve refuses a field the template does not have', marks: written('') },
  { id: 'template-size', kind: 'stricter', note: 'serve refuses a template over 256 KiB as stored and an element property over 1,024 characters as JSON', marks: written('') },
  { id: 'body-text', kind: 'stricter', note: 'serve refuses numbers that are not finite, lone surrogates and control characters (but tab, CR and LF) anywhere in a body', marks: [...written(''), { operation: 'validateFormula', request: '' }] },
  { id: 'formula-body', kind: 'stricter', note: 'serve refuses a field of the body other than formula', marks: [{ operation: 'validateFormula', request: '' }] },
  { id: 'query-refusals', kind: 'stricter', note: 'serve refuses (400) a value that is not a whole number in range, or a parameter given twice, where the real service may clamp or take one', marks: LISTS.flatMap((operation) => [{ operation, parameter: 'page' }, { operation, parameter: 'limit' }]) },
  { id: 'filter-values', kind: 'stricter', note: 'serve refuses (400) a value outside this set', marks: [{ operation: 'listTemplates', parameter: 'analysisType' }, { operation: 'listTemplates', parameter: 'reportCategory' }, { operation: 'listQueueRuns', parameter: 'status' }, { operation: 'listAnalyses', parameter: 'analysisType' }, { operation: 'listAnalyses', parameter: 'status' }] },
  { id: 'content-type', kind: 'stricter', note: 'serve refuses a body that is not sent as JSON', marks: [{ errorResponse: 415 }] },
  { id: 'host-check', kind: 'stricter', note: 'serve refuses a request whose Host is not its own name (against DNS rebinding)', marks: [{ errorResponse: 400 }] },
  { id: 'memory-bounds', kind: 'stricter', note: 'serve refuses pages past what the responses in flight may hold, and requests past --max-in-flight', marks: [{ errorResponse: 503 }, { errorResponse: 429 }] },
];

const LABELS: Record<DecisionKind, string> = { guess: 'Guess', stricter: 'Stricter than the specification' };
const EXTENSION = 'x-reportctl-decisions';

type Node = Record<string, unknown>;
const child = (node: unknown, key: string): Node | undefined => (typeof node === 'object' && node !== null ? ((node as Node)[key] as Node | undefined) : undefined);

/** The object a schema describes: itself, or the option of its anyOf that is one (a body that may be null). */
const objectIn = (schema: Node | undefined): Node | undefined => (schema?.properties ? schema : (schema?.anyOf as Node[] | undefined)?.find((option) => option.properties) ?? schema);

/** A field of a JSON Schema by its path (`data[].name`: `[]` is an array's items); '' the schema. */
function fieldOf(schema: Node | undefined, path: string): Node | undefined {
  let node = schema;
  for (const part of path === '' ? [] : path.split('.')) {
    const [name, items] = part.endsWith('[]') ? [part.slice(0, -2), true] : [part, false];
    if (name !== '') node = child(child(objectIn(node), 'properties'), name);
    if (items) node = child(node, 'items');
  }
  return node;
}

/** The node of the document a mark names; undefined when the document has no such place. */
export function markedNode(document: Node, mark: Mark): Node | undefined {
  if ('errorResponse' in mark) return child(child(child(document, 'components'), 'responses'), `Error${mark.errorResponse}`);
  const operation = Object.values((document.paths ?? {}) as Record<string, Node>)
    .flatMap((methods) => Object.values(methods) as Node[])
    .find((candidate) => candidate.operationId === mark.operation);
  if ('request' in mark) return fieldOf(child(child(child(child(operation, 'requestBody'), 'content'), 'application/json'), 'schema'), mark.request);
  if ('response' in mark) {
    const response = child(child(operation, 'responses'), String(mark.response));
    return mark.field === undefined ? response : fieldOf(child(child(child(response, 'content'), 'application/json'), 'schema'), mark.field);
  }
  if (mark.parameter !== undefined) return (operation?.parameters as Node[] | undefined)?.find((parameter) => parameter.name === mark.parameter);
  return operation;
}

/** The sentence a marked place's description carries for a decision. */
export const decisionSentence = (decision: Decision) => `${LABELS[decision.kind]}: ${decision.note} (reportctl decision ${decision.id}).`;

/** Marks each decision where the document describes the place; a place that is missing is an error. */
export function markDecisions(document: Node): void {
  for (const decision of decisions) {
    for (const mark of decision.marks) {
      const node = markedNode(document, mark);
      if (node === undefined) throw new Error(`decision ${decision.id}: the OpenAPI document has no ${JSON.stringify(mark)}`);
      node[EXTENSION] = [...((node[EXTENSION] as unknown[] | undefined) ?? []), { id: decision.id, kind: decision.kind }];
      const sentence = decisionSentence(decision);
      if (typeof node.description === 'string' && node.description.includes(sentence)) continue;
      node.description = typeof node.description === 'string' && node.description !== '' ? `${node.description.replace(/\.?$/, '.')} ${sentence}` : sentence;
    }
  }
}
