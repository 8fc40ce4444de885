import type { OperationId } from '../../../../contract/endpoints.js';
import { stableJson } from '../../../output/stable-json.js';
import type { NormalisedAnswer, Step } from './step.js';

/** One way the served answer is not the expected one. */
export interface Difference {
  operation: OperationId;
  step: string;
  /** `status`, `header.NAME`, or `body.PATH` (`[]` any element, `[*]` each element's value). */
  path: string;
  expected: unknown;
  served: unknown;
}

/** Shown where a side has no such field or header. */
const ABSENT = '(absent)';

/** What every body is compared on by value: error envelopes and formula verdicts. */
const ALWAYS_VALUES = ['error', 'issues[*].path', 'valid', 'usesL'];

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Every field path of a body with the JSON types found there; array elements merged under `[]`. */
export interface Shape {
  kinds: Map<string, Set<string>>;
  /** Paths of arrays with no element. */
  empty: Set<string>;
}

function shapeOf(value: unknown, path: string, shape: Shape): void {
  const kind = kindOf(value);
  const kinds = shape.kinds.get(path) ?? new Set<string>();
  shape.kinds.set(path, kinds.add(kind));
  if (Array.isArray(value)) {
    if (value.length === 0) shape.empty.add(path);
    for (const item of value) shapeOf(item, `${path}[]`, shape);
  } else if (kind === 'object') {
    for (const [key, item] of Object.entries(value as object)) if (item !== undefined) shapeOf(item, `${path}.${key}`, shape);
  }
}

/** The shape of a body, or of several merged: an array is empty only where none had an element. */
export function shapeOfBodies(bodies: readonly unknown[]): Shape {
  const shape: Shape = { kinds: new Map(), empty: new Set() };
  for (const body of bodies) if (body !== undefined) shapeOf(body, 'body', shape);
  for (const path of shape.empty) if (shape.kinds.has(`${path}[]`)) shape.empty.delete(path);
  return shape;
}

const shown = (kinds: Set<string> | undefined) => (kinds === undefined ? ABSENT : [...kinds].sort().join('|'));

/** The value at a path; `[*]` maps over an array. */
function valueAt(value: unknown, path: string): unknown {
  if (path === '') return value;
  const [head, ...rest] = path.split('.');
  const each = head!.endsWith('[*]');
  const key = each ? head!.slice(0, -3) : head!;
  if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
  const item = (value as Record<string, unknown>)[key];
  if (each) return Array.isArray(item) ? item.map((element) => valueAt(element, rest.join('.'))) : undefined;
  return valueAt(item, rest.join('.'));
}

/** Under an array the other side left empty, elements cannot be compared. */
function underEmptyArray(path: string, empty: Set<string>): boolean {
  for (let at = path.indexOf('[]'); at >= 0; at = path.indexOf('[]', at + 1)) {
    if (empty.has(path.slice(0, at))) return true;
  }
  return false;
}

/** Whether a parent of `path` (up to a `.` or `[`) is already reported. */
function underReported(path: string, reported: ReadonlySet<string>): boolean {
  for (let at = 0; at < path.length; at++) {
    if ((path[at] === '.' || path[at] === '[') && reported.has(path.slice(0, at))) return true;
  }
  return false;
}

type Differ = (path: string, expected: unknown, served: unknown) => void;

/**
 * Whether the kinds at a path differ as this step compares them. The items of data the account
 * held differ by side: there each kind the target sends must be one serve sends, and a field
 * only serve sends is not a difference.
 */
function kindsDiffer(step: Step, path: string, want: Set<string> | undefined, got: Set<string> | undefined): boolean {
  if (step.held && path.startsWith('body.data[]')) return want !== undefined && (got === undefined || [...want].some((kind) => !got.has(kind)));
  return shown(want) !== shown(got);
}

/**
 * The shapes compared path by path. Items of held data are compared with `held`: what serve
 * sends for that operation's items in any of its answers, as the data differ from step to step.
 */
function compareShapes(step: Step, expected: Shape, served: Shape, differ: Differ, skip: (path: string) => boolean, held: Shape | undefined): Set<string> {
  const reported = new Set<string>();
  const paths = [...new Set([...expected.kinds.keys(), ...served.kinds.keys()])].sort();
  for (const path of paths) {
    const items = step.held === true && held !== undefined && path.startsWith('body.data[]');
    const want = expected.kinds.get(path);
    const got = (items ? held : served).kinds.get(path);
    if (!kindsDiffer(step, path, want, got) || skip(path)) continue;
    if (underEmptyArray(path, want === undefined ? expected.empty : (items ? held : served).empty)) continue;
    // A missing object is one difference, not one per field inside it.
    if (underReported(path, reported)) continue;
    reported.add(path);
    differ(path, shown(want), shown(got));
  }
  return reported;
}

/** The values a step compares, each once: a field of another type is already told by its shape. */
function compareValues(step: Step, expected: unknown, served: unknown, differ: Differ, reported: Set<string>, stepValues: boolean): void {
  const onlyBoth = new Set(stepValues ? (step.valuesWhenBoth ?? []) : []);
  for (const path of [...(stepValues ? ALWAYS_VALUES : ['error']), ...(stepValues ? (step.values ?? []) : []), ...onlyBoth]) {
    const want = valueAt(expected, path);
    const got = valueAt(served, path);
    if (want === undefined && got === undefined) continue;
    if (onlyBoth.has(path) && (want === undefined || got === undefined)) continue;
    const typed = path.replace(/\[\*\]/g, '[]');
    if (reported.has(`body.${typed}`) || (want !== undefined && got !== undefined && kindOf(want) !== kindOf(got))) continue;
    if (stableJson(want) !== stableJson(got)) differ(`body.${path}`, want ?? ABSENT, got ?? ABSENT);
  }
}

function compareBodies(step: Step, expected: unknown, served: unknown, differ: Differ, shapes: boolean, held: Shape | undefined): void {
  const expectedShape = shapeOfBodies(shapes ? [expected] : []);
  const servedShape = shapeOfBodies(shapes ? [served] : []);
  // Other items on a page (another order): their fields would only say so again.
  const items = step.identity === undefined ? undefined : `body.${step.identity.slice(0, step.identity.indexOf('[*]'))}[]`;
  const otherItems = step.identity !== undefined && stableJson(valueAt(expected, step.identity)) !== stableJson(valueAt(served, step.identity));
  // Values told from the body, compared only when both sides could tell them.
  const told = new Set((step.valuesWhenBoth ?? []).map((path) => `body.${path}`));
  const skip = (path: string) => told.has(path) || (otherItems && items !== undefined && path.startsWith(items));
  const reported = compareShapes(step, expectedShape, servedShape, differ, skip, held);
  // A success against a failure: the error code tells it, not the issues or the step's values too.
  compareValues(step, expected, served, differ, reported, shapes);
}

/**
 * Where `served` is not `expected`: status, the named headers, the body's fields and values.
 * `held`: the shape of serve's answers to this operation's held-data steps, merged.
 */
export function compareAnswers(step: Step, expected: NormalisedAnswer, served: NormalisedAnswer, held?: Shape): Difference[] {
  const differences: Difference[] = [];
  const differ: Differ = (path, want, got) => differences.push({ operation: step.operation, step: step.name, path, expected: want, served: got });
  if (expected.status !== served.status) differ('status', expected.status, served.status);
  for (const name of [...new Set([...Object.keys(expected.headers), ...Object.keys(served.headers)])].sort()) {
    const want = expected.headers[name] ?? ABSENT;
    const got = served.headers[name] ?? ABSENT;
    if (want !== got) differ(`header.${name}`, want, got);
  }
  // A success against a failure: the status says it; the error code too, not each field.
  const sameKind = expected.status < 400 === served.status < 400;
  compareBodies(step, expected.body, served.body, differ, sameKind, held);
  return differences;
}

/** `OPERATION_OR_STEP:PATH`; `*` for every operation. A path covers what is under it. */
export interface Ignore {
  scope: string;
  path: string;
}

export function parseIgnore(text: string): Ignore | undefined {
  const at = text.indexOf(':');
  if (at <= 0 || at === text.length - 1) return undefined;
  return { scope: text.slice(0, at).trim(), path: text.slice(at + 1).trim() };
}

/** Whether an ignore covers a difference (or a finding, at `specification.RULE`). */
export function isIgnored(found: { operation: string; step: string; path: string }, ignores: readonly Ignore[]): boolean {
  return ignores.some(
    ({ scope, path }) =>
      (scope === '*' || scope === found.operation || scope === found.step) &&
      (found.path === path || found.path.startsWith(`${path}.`) || found.path.startsWith(`${path}[`)),
  );
}
