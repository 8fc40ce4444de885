import { checkFormula } from '../../../formula/check.js';
import { formulaLines } from '../../../formula/formula-file.js';
import { defaultFormulaRules, type FormulaRules } from '../../../formula/rules.js';
import type { CliDeps, GlobalOptions } from '../../cmdutil/context.js';
import { ExitCode, SilentFailure, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { readInputText } from '../../cmdutil/input.js';
import { writeData } from '../../iostreams/io.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { renderReport, type FormulaReport } from './render.js';

const verb = (parent: Parent) =>
  parent
    .command('check')
    .description('Check a Custom_Index formula offline with the bundled parser (the one the service uses)')
    .argument('[formula]', 'the formula; put `--` before one that starts with `-`')
    .option('-f, --file <path>', 'check one formula per line of a file (`-` reads stdin); blank lines and lines starting with # are skipped')
    .option('--remote-rules', "check against the bands, scalars, functions and rules the service publishes (its vegetation-index defaults) instead of the bundled ones")
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl formula check '(NIR - R) / (NIR + R + eps)'
  $ reportctl formula check -- '-NIR / (R + eps)'
  $ reportctl formula check --file formulas.txt --json
  $ reportctl formula check --file - < formulas.txt
  $ reportctl formula check --remote-rules 'RE / (NIR + eps)'

Exit status: 0 when every formula is valid, 1 when any is invalid, 2 on usage errors.`,
    );
export type FormulaCheckOptions = OptionsOf<typeof verb> & { formula?: string | undefined };

export function registerFormulaCheck(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<FormulaCheckOptions, [formula: string | undefined]> = async (flags, formula) => {
    const options = { ...flags, formula };
    return runFormulaCheck(options, deps, options.remoteRules ? await remoteFormulaRules(options, deps) : defaultFormulaRules);
  },
): void {
  bindRun(verb(parent), wrap, runF);
}

interface Line {
  label?: string;
  formula: string;
}

async function formulasToCheck(options: FormulaCheckOptions, deps: CliDeps): Promise<Line[]> {
  if (options.formula !== undefined && options.file !== undefined) {
    throw new UsageError('give either a FORMULA argument or --file, not both');
  }
  if (options.file === undefined) {
    if (options.formula === undefined) {
      throw new UsageError('missing FORMULA (or --file PATH, or --file - for stdin)');
    }
    return [{ formula: options.formula }];
  }
  const text = await readInputText(options.file, deps, '--file');
  const lines: Line[] = formulaLines(text).map(({ line, formula }) => ({ label: `line ${line}`, formula }));
  if (lines.length === 0) throw new UsageError(`--file: no formulas in ${options.file === '-' ? 'stdin' : options.file}`);
  return lines;
}

export function formulaReport(formula: string, rules: FormulaRules): FormulaReport {
  const check = checkFormula(formula, rules);
  return {
    formula,
    valid: check.valid,
    usesL: check.usesL,
    errors: check.errors.map(({ message, offset, length, suggestion }) =>
      suggestion === undefined ? { message, offset, length } : { message, offset, length, suggestion },
    ),
  };
}

/** The rules the service publishes; loaded lazily so the offline check never loads the client. */
export async function remoteFormulaRules(options: GlobalOptions, deps: CliDeps): Promise<FormulaRules> {
  const { formulaRulesOf } = await import('../../../contract/template.js');
  const session = await deps.api(options);
  const defaults = await session.api.catalogs.vegetationIndexDefaults();
  deps.io.progress.stop();
  return formulaRulesOf(defaults);
}

export async function runFormulaCheck(
  options: FormulaCheckOptions,
  deps: CliDeps,
  rules: FormulaRules = defaultFormulaRules,
): Promise<ExitCodeValue> {
  const lines = await formulasToCheck(options, deps);
  const style = options.json ? undefined : await deps.io.style(options.color);
  const tty = deps.io.isStdoutTTY();
  const width = deps.io.terminalWidth();
  let invalid = 0;
  for (const line of lines) {
    const report = formulaReport(line.formula, rules);
    if (!report.valid) invalid += 1;
    const rendered = style ? renderReport(report, style, { width, symbols: tty, ...(line.label ? { label: line.label } : {}) }) : JSON.stringify(report);
    await writeData(deps.io.stdout, rendered + '\n');
  }
  if (invalid > 0) {
    const message = lines.length === 1 ? 'the formula is invalid' : `${invalid} of ${lines.length} formulas are invalid`;
    throw new SilentFailure(ExitCode.failed, message, { code: 'FORMULA_INVALID' });
  }
  return ExitCode.ok;
}
