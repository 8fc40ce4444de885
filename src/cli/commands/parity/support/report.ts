import type { OperationId } from '../../../../contract/endpoints.js';
import { endpoints } from '../../../../contract/endpoints.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { writeData, writeLine } from '../../../iostreams/io.js';
import { printTable, type Column } from '../../../output/output.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import type { Style } from '../../../iostreams/style.js';
import { compareAnswers, isIgnored, type Difference, type Ignore } from './compare.js';
import type { StepOutcome } from './run.js';
import type { Step } from './context.js';

export type Verdict = 'same' | 'differs' | 'not comparable';

export interface OperationResult {
  operation: OperationId;
  result: Verdict;
  steps: number;
  compared: number;
  /** Steps one side did not answer, and why. */
  notComparable: { step: string; reason: string }[];
}

export interface Comparison {
  result: 'same' | 'differs';
  operations: OperationResult[];
  differences: Difference[];
  /** Differences left out by --ignore or the recording's ignore.txt. */
  ignored: number;
}

/** Compares every step's answers, served against expected, and sums them up per operation. */
export function compareOutcomes(steps: readonly Step[], expected: Map<string, StepOutcome>, served: Map<string, StepOutcome>, ignores: readonly Ignore[]): Comparison {
  const differences: Difference[] = [];
  let ignored = 0;
  const operations = new Map<OperationId, OperationResult>(
    (Object.keys(endpoints) as OperationId[]).map((operation) => [operation, { operation, result: 'not comparable', steps: 0, compared: 0, notComparable: [] }]),
  );
  for (const step of steps) {
    const row = operations.get(step.operation)!;
    row.steps += 1;
    const want = expected.get(step.name) ?? { unanswered: 'not in the recording' };
    const got = served.get(step.name) ?? { unanswered: 'not run' };
    if (!('answer' in want) || !('answer' in got)) {
      const reason = 'answer' in want ? `serve: ${(got as { unanswered: string }).unanswered}` : `expected: ${want.unanswered}`;
      row.notComparable.push({ step: step.name, reason });
      continue;
    }
    row.compared += 1;
    const found = compareAnswers(step, want.answer, got.answer);
    const kept = found.filter((difference) => !isIgnored(difference, ignores));
    ignored += found.length - kept.length;
    differences.push(...kept);
    if (kept.length > 0) row.result = 'differs';
    else if (row.result !== 'differs') row.result = 'same';
  }
  return { result: differences.length > 0 ? 'differs' : 'same', operations: [...operations.values()].filter((row) => row.steps > 0), differences, ignored };
}

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return escapeControls(text.length > 80 ? `${text.slice(0, 79)}…` : text);
}

const verdictColour = (verdict: Verdict, style: Style) => (verdict === 'same' ? style.green : verdict === 'differs' ? style.red : style.yellow);

/** The table per operation, then each difference as expected-vs-served, on stdout. */
export async function printComparison(deps: CliDeps, style: Style, comparison: Comparison): Promise<void> {
  const columns: Column<OperationResult>[] = [
    { header: 'OPERATION', readable: true, value: (row) => row.operation },
    { header: 'STEPS', value: (row) => (row.compared === row.steps ? String(row.steps) : `${row.compared} of ${row.steps}`) },
    { header: 'RESULT', value: (row) => row.result, color: (text, row, paint) => verdictColour(row.result, paint)(text) },
  ];
  await printTable(deps, style, columns, comparison.operations);
  // Paths are made of the service's keys, and reasons may come from a recording: both escaped.
  const lines = comparison.differences.map(
    (difference) =>
      `${style.bold(difference.step)} ${escapeControls(difference.path)}: expected ${style.green(shown(difference.expected))}, served ${style.red(shown(difference.served))}\n`,
  );
  if (lines.length > 0) await writeData(deps.io.stdout, lines.join(''));
  for (const row of comparison.operations) {
    for (const { step, reason } of row.notComparable) writeLine(deps.io.stderr, `not comparable: ${step} (${escapeControls(reason)})`);
  }
}
