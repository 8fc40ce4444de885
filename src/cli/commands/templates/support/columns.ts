import type { Preset, Template } from '../../../../contract/index.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { formatTime, idColumn, type Column } from '../../../output/output.js';

export function templateColumns(deps: CliDeps, wide: boolean): Column<Template>[] {
  const columns: Column<Template>[] = [
    idColumn(deps, wide, (template) => template.id),
    { header: 'NAME', readable: true, value: (template) => template.name },
    { header: 'ANALYSIS', value: (template) => template.analysisType },
    { header: 'REPORT TYPE', value: (template) => template.reportType },
  ];
  if (wide) {
    columns.push(
      { header: 'CATEGORY', value: (template) => template.reportCategory },
      { header: 'INDEX', value: (template) => template.indexName ?? '-' },
      { header: 'STATISTICS', value: (template) => String(template.selectedStatistics.length) },
    );
  }
  columns.push({ header: 'UPDATED', value: (template) => formatTime(template.updatedAt, deps) });
  return columns;
}

export const presetColumns: Column<Preset>[] = [
  { header: 'ID', keep: true, value: (preset) => preset.id, color: (text, _row, style) => style.cyan(text) },
  { header: 'NAME', value: (preset) => preset.name },
  { header: 'ANALYSIS', value: (preset) => preset.analysisType },
  { header: 'CATEGORY', value: (preset) => preset.reportCategory },
  { header: 'DESCRIPTION', value: (preset) => preset.description },
];
