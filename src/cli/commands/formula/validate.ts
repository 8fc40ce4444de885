import { MAX_FORMULA_LENGTH } from '../../../formula/rules.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { ExitCode, SilentFailure, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { renderReport, type FormulaReport } from './render.js';

const verb = (parent: Parent) =>
  parent
    .command('validate')
    .description("Validate a Custom_Index formula with the service's validate-formula endpoint")
    .argument('<formula>', 'the formula; put `--` before one that starts with `-`')
    .addHelpText(
      'after',
      `
\`formula check\` gives the same answer offline, with hints; this asks the service itself.

Examples:
  $ reportctl formula validate '(NIR - R) / (NIR + R + eps)'
  $ reportctl formula validate 'NIR / R' --json

Exit status: 0 when valid, 1 when invalid.`,
    );
export type FormulaValidateOptions = OptionsOf<typeof verb>;

export function registerFormulaValidate(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<FormulaValidateOptions, [formula: string]> = (options, formula) => runFormulaValidate({ ...options, formula }, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runFormulaValidate(options: FormulaValidateOptions & { formula: string }, deps: CliDeps): Promise<ExitCodeValue> {
  // The service answers an over-long formula with a 400; say so without the round trip.
  if (options.formula.length > MAX_FORMULA_LENGTH) {
    throw new UsageError(`the formula is ${options.formula.length} characters long; the service accepts at most ${MAX_FORMULA_LENGTH}`);
  }
  const session = await deps.api(options);
  const result = await session.api.templates.validateFormula(options.formula);
  deps.io.progress.stop();
  const report: FormulaReport = {
    formula: options.formula,
    valid: result.valid,
    usesL: result.usesL,
    errors: (result.errors ?? []).map(({ message, offset, length }) => ({ message, offset, length })),
  };
  if (options.json) {
    writeLine(deps.io.stdout, JSON.stringify(report));
  } else {
    const style = await deps.io.style(options.color);
    writeLine(deps.io.stdout, renderReport(report, style, { width: deps.io.terminalWidth(), symbols: deps.io.isStdoutTTY() }));
  }
  if (!report.valid) throw new SilentFailure(ExitCode.failed, 'the service found the formula invalid', { code: 'FORMULA_INVALID' });
  return ExitCode.ok;
}
