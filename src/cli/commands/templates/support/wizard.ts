import type { AnalysisType, Catalogs, Preset, ReportTypeEntry } from '../../../../contract/index.js';
import { paperSizes } from '../../../../contract/vocabulary.js';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { writeLine } from '../../../iostreams/io.js';
import { jsonForTerminal, escapeControls } from '../../../iostreams/sanitize.js';
import type { Session } from '../../../session/session.js';
import { SEPARATOR, type Prompter } from '../../../iostreams/prompter.js';
import { checkFormula } from '../../../../formula/check.js';

type StartFrom = { kind: 'scratch' } | { kind: 'preset'; preset: Preset };

const ANALYSIS_TYPE_HINTS: Record<AnalysisType, string> = {
  counting: 'plant counts, stand density, spacing',
  replanting: 'gaps and failures to replant',
  path: 'machinery paths and traffic',
};

/**
 * The guided `templates create` on a terminal: from a preset, or from scratch with every
 * choice read from the service's catalogs. Prompts write to stderr, so stdout still carries
 * only the new id. Returns the body to send, or null when the user declines at the end.
 * An aborted prompt (Ctrl-C) propagates; the top level maps it to exit code 130.
 */
export async function runCreateWizard(session: Session, options: GlobalOptions, deps: CliDeps): Promise<Record<string, unknown> | null> {
  const { checkTemplateDocument } = await import('../../../../contract/index.js');
  const prompts = deps.prompter;

  deps.io.progress.update('reading presets and catalogs');
  let catalogs: Catalogs;
  const presets: Preset[] = [];
  try {
    const readPresets = async () => {
      for await (const preset of session.api.presets.listAll({}, deps.signal)) presets.push(preset);
    };
    [catalogs] = await Promise.all([session.api.catalogs.all(), readPresets()]);
  } finally {
    deps.io.progress.stop();
  }

  const startFrom = await prompts.select<StartFrom>({
    message: 'Start from',
    choices: [
      { name: 'From scratch', value: { kind: 'scratch' }, description: 'choose the analysis, report type and statistics from the catalogs' },
      SEPARATOR,
      ...presets.map((preset) => ({
        name: escapeControls(`${preset.name} (${preset.id})`),
        value: { kind: 'preset' as const, preset },
        description: escapeControls(preset.description),
      })),
    ],
    pageSize: Math.min(presets.length + 2, 15),
  });

  const body =
    startFrom.kind === 'preset'
      ? await presetBody(prompts, startFrom.preset)
      : await scratchBody(prompts, catalogs, session.settings.language);

  writeLine(deps.io.stderr);
  writeLine(deps.io.stderr, jsonForTerminal(JSON.stringify(body, null, 2)));
  if (startFrom.kind === 'scratch') {
    const style = await deps.io.style(options.color, 'stderr');
    writeLine(deps.io.stderr, style.dim('(layouts, margins and map resolution: the catalog defaults)'));
  }
  const create = await prompts.confirm({ message: 'Create this template?', default: true });
  if (!create) return null;

  // Every answer came from the catalogs, so this should pass; if a preset or the catalogs
  // disagree with the rules, say so here rather than after a round trip.
  const validation = checkTemplateDocument(body, catalogs);
  if (!validation.success) {
    throw new CliError('the template built from your answers is not valid; nothing was sent', ExitCode.failed, undefined, {
      code: 'VALIDATION_FAILED',
      issues: validation.issues,
    });
  }
  return body;
}

async function presetBody(prompts: Prompter, preset: Preset): Promise<Record<string, unknown>> {
  const name = await askName(prompts, escapeControls(preset.name));
  return { ...preset.seedPayload, name };
}

async function scratchBody(prompts: Prompter, catalogs: Catalogs, language: 'en' | 'es'): Promise<Record<string, unknown>> {
  const analysisTypes = (Object.keys(ANALYSIS_TYPE_HINTS) as AnalysisType[]).filter((type) => catalogs.reportTypes[type].length > 0);
  const analysisType = await prompts.select<AnalysisType>({
    message: 'Analysis type',
    choices: analysisTypes.map((type) => ({ name: type, value: type, description: ANALYSIS_TYPE_HINTS[type] })),
  });

  const entries = catalogs.reportTypes[analysisType];
  const reportType = await prompts.select<ReportTypeEntry>({
    message: 'Report type',
    choices: entries.map((entry) => ({
      name: escapeControls(`${entry.label[language] || entry.label.en} (${entry.key})`),
      value: entry,
      description: entry.reportCategory === 'vegetation_index' ? 'a vegetation index map and its statistics' : 'a general report',
    })),
    pageSize: Math.min(entries.length, 15),
  });

  const statistics = catalogs.statistics[analysisType];
  const preChecked = new Set(reportType.statistics);
  const selectedStatistics = await prompts.checkbox<string>({
    message: 'Statistics (space toggles, enter accepts)',
    choices: statistics.map((statistic) => ({ name: escapeControls(statistic), value: statistic, checked: preChecked.has(statistic) })),
    pageSize: Math.min(statistics.length, 15),
  });

  const body: Record<string, unknown> = {
    analysisType,
    reportType: reportType.key,
    reportTypeId: reportType.id,
    reportCategory: reportType.reportCategory,
    selectedStatistics,
  };
  if (reportType.reportCategory === 'vegetation_index') Object.assign(body, await askIndex(prompts, catalogs));

  const defaults = catalogs.vegetationIndexDefaults.defaults;
  body.paperSize = await prompts.select({ message: 'Paper size', choices: paperSizes.map((size) => ({ name: size, value: size })), default: defaults.paperSize });
  const name = await askName(prompts, escapeControls(reportType.label[language] || reportType.label.en));
  return { name, ...body };
}

/** indexName, and for Custom_Index the formula (checked as typed) and L when it uses L. */
async function askIndex(prompts: Prompter, catalogs: Catalogs): Promise<Record<string, unknown>> {
  const { CUSTOM_INDEX, formulaRulesOf } = await import('../../../../contract/index.js');
  const viDefaults = catalogs.vegetationIndexDefaults;
  const indexName = await prompts.select<string>({
    message: 'Vegetation index',
    choices: viDefaults.indexNames.map((index) => ({
      name: escapeControls(index),
      value: index,
      ...(index === CUSTOM_INDEX ? { description: 'your own formula over the bands' } : {}),
    })),
    pageSize: Math.min(viDefaults.indexNames.length, 15),
  });
  if (indexName !== CUSTOM_INDEX) return { indexName };

  const rules = formulaRulesOf(viDefaults);
  const vocabulary = `bands ${rules.allowedBands.join(' ')}; scalars ${rules.allowedScalars.join(' ')}; functions ${rules.allowedFunctions.join(' ')}`;
  const formula = await prompts.input({
    message: escapeControls(`Formula (${vocabulary})`),
    required: true,
    validate: (value) => {
      const first = checkFormula(value, rules).errors[0];
      if (!first) return true;
      // Messages and suggestions quote the catalog's names.
      return escapeControls(`${first.message} at column ${first.offset + 1}${first.suggestion ? `; ${first.suggestion}` : ''}`);
    },
  });
  if (!checkFormula(formula, rules).usesL) return { indexName, formula };
  const saviL = await prompts.number({
    message: 'L, the soil adjustment factor the formula uses (0–1)',
    default: viDefaults.defaults.saviL,
    min: 0,
    max: 1,
    step: 'any',
    required: true,
  });
  return { indexName, formula, saviL: saviL ?? viDefaults.defaults.saviL };
}

async function askName(prompts: Prompter, suggested: string): Promise<string> {
  const name = await prompts.input({
    message: 'Template name',
    default: suggested,
    required: true,
    validate: (value) => {
      const trimmed = value.trim();
      return (trimmed.length >= 1 && trimmed.length <= 200) || 'a name of 1 to 200 characters';
    },
  });
  return name.trim();
}
