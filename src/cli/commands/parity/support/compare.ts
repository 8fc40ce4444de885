import type { OperationId } from '../../../../contract/endpoints.js';
import { stableJson } from '../../../output/stable-json.js';
import type { NormalisedAnswer } from './normalise.js';
import type { Step } from './context.js';

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

/** Every field path of a body with its JSON type; array elements merged under `[]`. */
function shapeOf(value: unknown, path: string, shape: Map<string, string>, emptyArrays: Set<string>): void {
  const kind = kindOf(value);
  const known = shape.get(path);
  shape.set(path, known === undefined || known === kind ? kind : `${known}|${kind}`);
  if (Array.isArray(value)) {
    if (value.length === 0) emptyArrays.add(path);
    for (const item of value) shapeOf(item, `${path}[]`, shape, emptyArrays);
  } else if (kind === 'object') {
    for (const [key, item] of Object.entries(value as object)) shapeOf(item, `${path}.${key}`, shape, emptyArrays);
  }
}

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
function underEmptyArray(path: string, emptyArrays: Set<string>): boolean {
  for (let at = path.indexOf('[]'); at >= 0; at = path.indexOf('[]', at + 1)) {
    if (emptyArrays.has(path.slice(0, at))) return true;
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

function compareBodies(
  step: Step,
  expected: unknown,
  served: unknown,
  differ: (path: string, expected: unknown, served: unknown) => void,
  shapes: boolean,
): void {
  const expectedShape = new Map<string, string>();
  const servedShape = new Map<string, string>();
  const expectedEmpty = new Set<string>();
  const servedEmpty = new Set<string>();
  if (shapes && expected !== undefined) shapeOf(expected, 'body', expectedShape, expectedEmpty);
  if (shapes && served !== undefined) shapeOf(served, 'body', servedShape, servedEmpty);
  const reported = new Set<string>();
  const paths = [...new Set([...expectedShape.keys(), ...servedShape.keys()])].sort();
  for (const path of paths) {
    const want = expectedShape.get(path) ?? ABSENT;
    const got = servedShape.get(path) ?? ABSENT;
    if (want === got) continue;
    if (underEmptyArray(path, want === ABSENT ? expectedEmpty : servedEmpty)) continue;
    // A missing object is one difference, not one per field inside it.
    if (underReported(path, reported)) continue;
    reported.add(path);
    differ(path, want, got);
  }
  for (const path of [...ALWAYS_VALUES, ...(step.values ?? [])]) {
    const want = valueAt(expected, path);
    const got = valueAt(served, path);
    if (want === undefined && got === undefined) continue;
    const typed = path.replace(/\[\*\]/g, '[]');
    // A field of another type is already told above.
    if (reported.has(`body.${typed}`) || (want !== undefined && got !== undefined && kindOf(want) !== kindOf(got))) continue;
    if (stableJson(want) !== stableJson(got)) differ(`body.${path}`, want ?? ABSENT, got ?? ABSENT);
  }
}

/** Where `served` is not `expected`: status, the named headers, the body's fields and values. */
export function compareAnswers(step: Step, expected: NormalisedAnswer, served: NormalisedAnswer): Difference[] {
  const differences: Difference[] = [];
  const differ = (path: string, want: unknown, got: unknown) => differences.push({ operation: step.operation, step: step.name, path, expected: want, served: got });
  if (expected.status !== served.status) differ('status', expected.status, served.status);
  for (const name of [...new Set([...Object.keys(expected.headers), ...Object.keys(served.headers)])].sort()) {
    const want = expected.headers[name] ?? ABSENT;
    const got = served.headers[name] ?? ABSENT;
    if (want !== got) differ(`header.${name}`, want, got);
  }
  // A success against a failure: the status says it; the error code too, not each field.
  const sameKind = expected.status < 400 === served.status < 400;
  compareBodies(step, expected.body, served.body, differ, sameKind);
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

export function isIgnored(difference: Difference, ignores: readonly Ignore[]): boolean {
  return ignores.some(
    ({ scope, path }) =>
      (scope === '*' || scope === difference.operation || scope === difference.step) &&
      (difference.path === path || difference.path.startsWith(`${path}.`) || difference.path.startsWith(`${path}[`)),
  );
}
