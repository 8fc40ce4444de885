import type { AnalysisType, Catalogs, ValidationIssue } from '../../../../contract/index.js';
import { closestMatch } from '../../../../contract/closest-match.js';
import { escapeControls } from '../../../iostreams/sanitize.js';

const NUMERIC_FIELDS = new Set(['mapResolution', 'saviL', 'margins.top', 'margins.right', 'margins.bottom', 'margins.left']);

function valueAt(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * A number sent as text: what to write instead, as JSON (`"top": 10`, never `"top": two`).
 * Text that reads as a number is shown as that number.
 */
function numberHint(path: string, sent: string): string {
  const field = path.split('.').at(-1)!;
  const number = sent.trim() === '' ? Number.NaN : Number(sent);
  if (Number.isFinite(number)) return `${path}: must be a JSON number, not text; write "${field}": ${number}`;
  return `${path}: must be a JSON number, not text: "${field}": 10, not "${field}": ${JSON.stringify(sent)}`;
}

/** Each enum field the body gets wrong, with the schema's valid values (zod loads only here). */
async function enumValuesIn(body: unknown): Promise<Map<string, string[]>> {
  const { templateBodySchema, issuePath } = await import('../../../../contract/index.js');
  const parsed = templateBodySchema.safeParse(body);
  const values = new Map<string, string[]>();
  for (const issue of parsed.error?.issues ?? []) {
    if (issue.code === 'invalid_value') values.set(issuePath(issue.path), issue.values.map(String));
  }
  return values;
}

/**
 * The helpful version of the service's terse issues: the valid values (from the catalogs, or
 * the schema's for an enum such as paperSize) and the closest match, and why a number sent as
 * text is refused. Catalogs are read only when an issue needs them.
 */
export async function explainTemplateIssues(
  issues: readonly ValidationIssue[],
  body: unknown,
  loadCatalogs: () => Promise<Catalogs>,
): Promise<string[]> {
  const hints: string[] = [];
  let enumValues: Map<string, string[]> | undefined;
  let catalogs: Catalogs | undefined;
  const catalogsOnce = async () => (catalogs ??= await loadCatalogs());
  const analysisType = valueAt(body, 'analysisType');
  const known = (type: unknown): type is AnalysisType => type === 'counting' || type === 'replanting' || type === 'path';

  for (const issue of issues) {
    const sent = valueAt(body, issue.path);
    if (NUMERIC_FIELDS.has(issue.path) && typeof sent === 'string') {
      hints.push(numberHint(issue.path, sent));
      continue;
    }
    if (issue.path === 'reportType' && known(analysisType)) {
      const keys = (await catalogsOnce()).reportTypes[analysisType].map((entry) => entry.key);
      const guess = typeof sent === 'string' ? closestMatch(sent, keys) : undefined;
      hints.push(`reportType: valid for ${analysisType}: ${keys.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`);
    } else if (issue.path === 'reportTypeId' && known(analysisType)) {
      const entry = (await catalogsOnce()).reportTypes[analysisType].find((candidate) => candidate.key === valueAt(body, 'reportType'));
      if (entry) hints.push(`reportTypeId: the id of ${entry.key} is ${entry.id}`);
    } else if (issue.path === 'reportCategory' && known(analysisType)) {
      const entry = (await catalogsOnce()).reportTypes[analysisType].find((candidate) => candidate.key === valueAt(body, 'reportType'));
      if (entry) hints.push(`reportCategory: ${entry.key} is a ${entry.reportCategory} report type`);
    } else if (/^selectedStatistics\.\d+$/.test(issue.path) && known(analysisType)) {
      const valid = (await catalogsOnce()).statistics[analysisType];
      if (typeof sent === 'string' && valid.includes(sent)) {
        hints.push(`${issue.path}: \`${sent}\` is listed twice in selectedStatistics; remove one`);
        continue;
      }
      const guess = typeof sent === 'string' ? closestMatch(sent, valid) : undefined;
      hints.push(`${issue.path}: \`${String(sent)}\` is not a ${analysisType} statistic${guess ? ` (did you mean ${guess}?)` : ''}; valid: ${valid.join(', ')}`);
    } else if (issue.path === 'indexName' && typeof sent === 'string') {
      const names = (await catalogsOnce()).vegetationIndexDefaults.indexNames;
      const guess = closestMatch(sent, names);
      hints.push(`indexName: valid: ${names.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`);
    } else {
      const values = (enumValues ??= await enumValuesIn(body)).get(issue.path);
      if (!values) continue;
      const guess = typeof sent === 'string' ? closestMatch(sent, values) : undefined;
      hints.push(`${issue.path}: valid: ${values.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`);
    }
  }
  // The catalogs' keys and the issues' text come from the service.
  return hints.map(escapeControls);
}

