import type { OperationId } from '../../../../contract/endpoints.js';
import { endpoints } from '../../../../contract/endpoints.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { writeData, writeLine } from '../../../iostreams/io.js';
import { printTable, type Column } from '../../../output/output.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import type { Style } from '../../../iostreams/style.js';
import { stableJson } from '../../../output/stable-json.js';
import { compareAnswers, isIgnored, shapeOfBodies, type Difference, type Ignore, type Shape } from './compare.js';
import type { Finding, Step, StepOutcome } from './step.js';

export type Verdict = 'same' | 'differs' | 'not comparable';

export interface OperationResult {
  operation: OperationId;
  result: Verdict;
  steps: number;
  compared: number;
  /** Steps one side did not answer, and why. */
  notComparable: { step: string; reason: string }[];
  /** Findings against the specification on this operation's answers (either side). */
  specification: number;
}

export interface Comparison {
  /** `differs` when anything differs from serve or from the specification. */
  result: 'same' | 'differs';
  operations: OperationResult[];
  /** Where serve answered otherwise than the target. */
  differences: Difference[];
  /** Where an answer (the target's, or serve's) is not what the specification says. */
  specification: Finding[];
  /** Differences and findings left out by --ignore or the recording's ignore.txt. */
  ignored: number;
  /** What the run could not check, and why. */
  notChecked: string[];
}

/** What serve sent in its successful answers to each operation's held-data steps, merged. */
function heldShapes(steps: readonly Step[], served: Map<string, StepOutcome>): Map<OperationId, Shape> {
  const bodies = new Map<OperationId, unknown[]>();
  for (const step of steps) {
    const outcome = served.get(step.name);
    if (!step.held || outcome === undefined || !('answer' in outcome) || outcome.answer.status >= 300) continue;
    bodies.set(step.operation, [...(bodies.get(step.operation) ?? []), outcome.answer.body]);
  }
  return new Map([...bodies].map(([operation, all]) => [operation, shapeOfBodies(all)]));
}

/** Compares every step's answers, served against expected, and sums them up per operation with the findings. */
export function compareOutcomes(
  steps: readonly Step[],
  outcomes: { expected: Map<string, StepOutcome>; served: Map<string, StepOutcome> },
  found: { specification: readonly Finding[]; notChecked: readonly string[] },
  ignores: readonly Ignore[],
): Comparison {
  const differences: Difference[] = [];
  let ignored = 0;
  const operations = new Map<OperationId, OperationResult>(
    (Object.keys(endpoints) as OperationId[]).map((operation) => [operation, { operation, result: 'not comparable', steps: 0, compared: 0, notComparable: [], specification: 0 }]),
  );
  const held = heldShapes(steps, outcomes.served);
  for (const step of steps) {
    const row = operations.get(step.operation)!;
    row.steps += 1;
    const want = outcomes.expected.get(step.name) ?? { unanswered: 'not in the recording' };
    const got = outcomes.served.get(step.name) ?? { unanswered: 'not run' };
    if (!('answer' in want) || !('answer' in got)) {
      const reason = 'answer' in want ? `serve: ${(got as { unanswered: string }).unanswered}` : `expected: ${want.unanswered}`;
      row.notComparable.push({ step: step.name, reason });
      continue;
    }
    row.compared += 1;
    const all = compareAnswers(step, want.answer, got.answer, held.get(step.operation));
    const kept = all.filter((difference) => !isIgnored(difference, ignores));
    ignored += all.length - kept.length;
    differences.push(...kept);
    if (kept.length > 0) row.result = 'differs';
    else if (row.result !== 'differs') row.result = 'same';
  }
  const specification = found.specification.filter((finding) => !isIgnored({ ...finding, path: `specification.${finding.rule}` }, ignores));
  ignored += found.specification.length - specification.length;
  for (const finding of specification) operations.get(finding.operation)!.specification += 1;
  const differs = differences.length > 0 || specification.length > 0;
  const rows = [...operations.values()].filter((row) => row.steps > 0 || row.specification > 0);
  return { result: differs ? 'differs' : 'same', operations: rows, differences, specification, ignored, notChecked: [...found.notChecked] };
}

function shown(value: unknown, longest = 80): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return escapeControls(text.length > longest ? `${text.slice(0, longest - 1)}…` : text);
}

/**
 * Differences one line each, the same one in several steps of an operation once, naming the
 * other steps: a field of the account's data differs in every page of it.
 */
function sameAcrossSteps(differences: readonly Difference[]): { difference: Difference; also: string[] }[] {
  const first = new Map<string, { difference: Difference; also: string[] }>();
  for (const difference of differences) {
    const key = stableJson([difference.operation, difference.path, difference.expected, difference.served]);
    const known = first.get(key);
    if (known) known.also.push(difference.step.startsWith(`${difference.operation}.`) ? difference.step.slice(difference.operation.length) : difference.step);
    else first.set(key, { difference, also: [] });
  }
  return [...first.values()];
}

const verdictColour = (verdict: Verdict, style: Style) => (verdict === 'same' ? style.green : verdict === 'differs' ? style.red : style.yellow);

/**
 * The table per operation, then each difference from serve as expected-vs-served, then each
 * finding against the specification, on stdout; what could not be compared or checked on stderr.
 */
export async function printComparison(deps: CliDeps, style: Style, comparison: Comparison): Promise<void> {
  const columns: Column<OperationResult>[] = [
    { header: 'OPERATION', readable: true, value: (row) => row.operation },
    { header: 'STEPS', value: (row) => (row.compared === row.steps ? String(row.steps) : `${row.compared} of ${row.steps}`) },
    { header: 'RESULT', value: (row) => row.result, color: (text, row, paint) => verdictColour(row.result, paint)(text) },
    { header: 'SPECIFICATION', value: (row) => (row.specification === 0 ? 'ok' : `${row.specification} finding${row.specification === 1 ? '' : 's'}`), color: (text, row, paint) => (row.specification === 0 ? paint.green : paint.red)(text) },
  ];
  await printTable(deps, style, columns, comparison.operations);
  // Paths are made of the service's keys, and reasons may come from a recording: both escaped.
  const lines = sameAcrossSteps(comparison.differences).map(
    ({ difference, also }) =>
      `${style.bold(difference.step)} ${escapeControls(difference.path)}: expected ${style.green(shown(difference.expected))}, served ${style.red(shown(difference.served))}${also.length > 0 ? ` (also ${also.join(', ')})` : ''}\n`,
  );
  for (const finding of comparison.specification) {
    const whose = finding.side === 'target' ? 'the target' : 'serve';
    lines.push(`${style.bold(escapeControls(finding.step))} specification.${finding.rule}: ${style.green(shown(finding.expected, 160))}; ${whose} sent ${style.red(shown(finding.found, 160))}\n`);
  }
  if (lines.length > 0) await writeData(deps.io.stdout, lines.join(''));
  for (const row of comparison.operations) {
    for (const { step, reason } of row.notComparable) writeLine(deps.io.stderr, `not comparable: ${step} (${escapeControls(reason)})`);
  }
  for (const note of comparison.notChecked) writeLine(deps.io.stderr, `not checked: ${escapeControls(note)}`);
}
