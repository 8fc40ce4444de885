import type { ColorScale, VegetationIndexDefaults } from '../../../contract/index.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { printJson, printTable, printFields, type Column } from '../../output/output.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { writeLine } from '../../iostreams/io.js';
import type { Style } from '../../iostreams/style.js';

const verb = (parent: Parent) =>
  parent
    .command('vi-defaults')
    .alias('vegetation-index-defaults')
    .description('Vegetation-index defaults: index names, colour scales, accent colours, page defaults and formula rules')
    .addHelpText('after', '\nExamples:\n  $ reportctl catalogs vi-defaults\n  $ reportctl catalogs vi-defaults --json | jq .customFormula');
export type CatalogsViDefaultsOptions = OptionsOf<typeof verb>;

export function registerCatalogsViDefaults(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<CatalogsViDefaultsOptions> = (options) => runCatalogsViDefaults(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

interface IndexRow {
  indexName: string;
  accent?: string;
  scale?: ColorScale;
}

const SWATCH = '■';

/** The swatch block painted in the index's own accent colour (24-bit, like the palette itself). */
function paintSwatch(style: Style, text: string, hex: string | undefined): string {
  const match = hex === undefined ? null : /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match || !text.startsWith(SWATCH)) return text;
  return style.truecolor(hex!, SWATCH) + text.slice(SWATCH.length);
}

function scaleRange(scale: ColorScale | undefined): string {
  if (!scale || scale.stops.length === 0) return '-';
  const first = scale.stops[0]!;
  const last = scale.stops[scale.stops.length - 1]!;
  return `${first.value} … ${last.value} (${scale.stops.length} stops, ${first.color} → ${last.color})`;
}

export async function runCatalogsViDefaults(options: CatalogsViDefaultsOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  const defaults: VegetationIndexDefaults = await session.api.catalogs.vegetationIndexDefaults();
  deps.io.progress.stop();
  if (options.json) return printJson(deps, defaults);
  const style = await deps.io.style(options.color);
  const rows: IndexRow[] = defaults.indexNames.map((indexName) => ({
    indexName,
    ...(defaults.accentColors[indexName] !== undefined ? { accent: defaults.accentColors[indexName] } : {}),
    ...(defaults.colorScales[indexName] !== undefined ? { scale: defaults.colorScales[indexName] } : {}),
  }));
  const columns: Column<IndexRow>[] = [
    { header: 'INDEX', value: (row) => row.indexName, color: (text, _row, s) => s.bold(text) },
    // The swatch is part of the value so the table sizes the column for it; colour only paints it.
    { header: 'ACCENT', value: (row) => (style.enabled && row.accent ? `${SWATCH} ` : '') + (row.accent ?? '-'), color: (text, row, s) => paintSwatch(s, text, row.accent) },
    { header: 'SCALE', value: (row) => scaleRange(row.scale) },
  ];
  await printTable(deps, style, columns, rows);

  const { paperSize, mapResolution, margins, saviL } = defaults.defaults;
  const formula = defaults.customFormula;
  const section = (title: string, lines: [string, string][]) => {
    writeLine(deps.io.stdout);
    writeLine(deps.io.stdout, style.bold(title));
    printFields(deps, style, lines, '  ');
  };
  section('Defaults', [
    ['paper size', paperSize],
    ['map resolution', `${mapResolution} dpi`],
    ['margins', `top ${margins.top}, right ${margins.right}, bottom ${margins.bottom}, left ${margins.left}`],
    ['saviL', String(saviL)],
    ['layouts', `portrait (${defaults.layouts.portrait.elements.length} elements), landscape (${defaults.layouts.landscape.elements.length} elements)`],
  ]);
  section('Custom_Index formulas', [
    ['bands', formula.allowedBands.join(', ')],
    ['scalars', formula.allowedScalars.join(', ')],
    ['functions', formula.allowedFunctions.map((name) => `${name}(x)`).join(', ')],
    ['division', formula.rules.divisionRequiresEps ? 'every divisor must contain eps' : 'no rule'],
  ]);
}
