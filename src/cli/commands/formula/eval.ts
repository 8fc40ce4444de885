import { checkFormula } from '../../../formula/check.js';
import { evaluate, FormulaEvaluationError } from '../../../formula/evaluate.js';
import { defaultFormulaRules } from '../../../formula/rules.js';
import { nearestName } from '../../../formula/did-you-mean.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { ExitCode, SilentFailure, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { formulaReport } from './check.js';
import { renderReport } from './render.js';

function parseNumber(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag}: \`${text}\` is not a number`);
  return value;
}

/** L, the SAVI soil factor, when --L is not given: the value the index is usually given with. */
const DEFAULT_L = 0.5;

/** A band the formula rules know, named as they name it (names are case-sensitive). */
function bandName(name: string): string {
  const { allowedBands, allowedScalars } = defaultFormulaRules;
  if (allowedBands.includes(name)) return name;
  if (allowedScalars.includes(name)) throw new UsageError(`--band: ${name} is not a band; give it with --${name}`);
  const guess = nearestName(name, allowedBands);
  throw new UsageError(`--band: unknown band "${name}"${guess ? `; did you mean "${guess}"?` : ''}`, `the bands are ${allowedBands.join(', ')}`);
}

function collectBand(text: string, previous: Record<string, number> | undefined): Record<string, number> {
  const match = /^([^=]*)=(.*)$/.exec(text);
  if (!match || match[1]!.trim() === '') throw new UsageError(`--band: expected NAME=VALUE (e.g. NIR=0.62), got \`${text}\``);
  const name = bandName(match[1]!);
  return { ...previous, [name]: parseNumber(`--band ${name}`, match[2]!) };
}

const verb = (parent: Parent) =>
  parent
    .command('eval')
    .description('Evaluate a formula on given band values (reflectances)')
    .argument('<formula>', 'the formula; put `--` before one that starts with `-`')
    .option('-b, --band <NAME=VALUE>', `a band value, repeatable: --band NIR=0.62 --band R=0.08 (bands: ${defaultFormulaRules.allowedBands.join(', ')})`, collectBand)
    .option('--eps <value>', 'value of eps', (text) => parseNumber('--eps', text), 1e-9)
    // No commander default: the run says when it used this one.
    .option('--L <value>', `value of L, the SAVI soil factor (default: ${DEFAULT_L}, said on stderr when used)`, (text) => parseNumber('--L', text))
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl formula eval '(NIR - R) / (NIR + R + eps)' --band NIR=0.62 --band R=0.08
  $ reportctl formula eval '(1 + L) * (NIR - R) / (NIR + R + L + eps)' -b NIR=0.5 -b R=0.1 --L 0.5 --json`,
    );
export type FormulaEvalOptions = OptionsOf<typeof verb>;

export function registerFormulaEval(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<FormulaEvalOptions, [formula: string]> = (options, formula) => runFormulaEval({ ...options, formula }, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runFormulaEval(options: FormulaEvalOptions & { formula: string }, deps: CliDeps): Promise<ExitCodeValue> {
  const check = checkFormula(options.formula, defaultFormulaRules);
  if (!check.valid || !check.ast) {
    const report = formulaReport(options.formula, defaultFormulaRules);
    if (options.json) {
      writeLine(deps.io.stdout, JSON.stringify(report));
    } else {
      const style = await deps.io.style(options.color, 'stderr');
      writeLine(deps.io.stderr, renderReport(report, style, { width: deps.io.terminalWidth(), symbols: deps.io.isStdoutTTY() }));
    }
    throw new SilentFailure(ExitCode.failed, 'the formula is invalid', { code: 'FORMULA_INVALID' });
  }
  const values = { ...options.band, eps: options.eps, L: options.L ?? DEFAULT_L };
  // A default that changes the value is said, so a result is never read without it.
  if (check.usesL && options.L === undefined) writeLine(deps.io.stderr, `reportctl: L = ${DEFAULT_L} (the default; set it with --L)`);
  let value: number;
  try {
    value = evaluate(check.ast, values);
  } catch (error) {
    if (error instanceof FormulaEvaluationError) {
      const flags = error.missing.map((name) => `--band ${name}=VALUE`).join(' ');
      throw new UsageError(`no value for ${error.missing.join(', ')}`, `add ${flags}`);
    }
    throw error;
  }
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify({ formula: options.formula, value: Number.isFinite(value) ? value : String(value), values }));
  } else {
    writeLine(deps.io.stdout, String(value));
  }
  return ExitCode.ok;
}
