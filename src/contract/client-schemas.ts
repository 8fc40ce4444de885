import { paginated } from './common.js';
import { reportTypesCatalogSchema, statisticsCatalogSchema, vegetationIndexDefaultsSchema } from './catalogs.js';
import { errorBodySchema } from './errors.js';
import { analysisSchema, presetSchema, queueRunSchema, queueSchema, validateFormulaResultSchema } from './resources.js';
import { templateBodySchema, templateSchema } from './template.js';

/**
 * Every schema the client reads a body with, by the name of its generated check (an export of
 * src/client/generated/response-checks.js, made from this list by `npm run response-checks`).
 */
export const checkedSchemas = {
  template: templateSchema,
  templatePage: paginated(templateSchema),
  presetPage: paginated(presetSchema),
  queuePage: paginated(queueSchema),
  queueRunPage: paginated(queueRunSchema),
  analysisPage: paginated(analysisSchema),
  validateFormulaResult: validateFormulaResultSchema,
  reportTypesCatalog: reportTypesCatalogSchema,
  statisticsCatalog: statisticsCatalogSchema,
  vegetationIndexDefaults: vegetationIndexDefaultsSchema,
  errorBody: errorBodySchema,
  templateBody: templateBodySchema,
};
export type CheckedSchemas = typeof checkedSchemas;
export type CheckName = keyof CheckedSchemas;
