import {
  formulaRulesOf,
  paginated,
  pageQuerySchema,
  presetSchema,
  templateBodySchema,
  templateSchema,
  templatesQuerySchema,
  validateFormulaBodySchema,
  validateFormulaResultSchema,
  type TemplateBody,
} from '../../contract/index.js';
import { checkFormula } from '../../formula/check.js';
import { ApiError, notFound } from '../errors.js';
import { storableTemplate } from '../template-rules.js';
import type { Store } from '../store/index.js';
import { jsonText, withHeaders } from './response.js';
import { presets } from '../../contract/default-catalogs.js';
import { demoTemplatePresetIds } from '../seed/demo.js';
import { defineEndpoint, type Endpoint } from './endpoint.js';

/** The document's examples: the demo account's templates, made from presets. */
const demoBody = (index: number) => {
  const { presetId, name } = demoTemplatePresetIds[index]!;
  return { ...presets.find((preset) => preset.id === presetId)!.seedPayload, name };
};
const customFormula = (demoBody(3) as { formula?: string }).formula;

export function templateEndpoints(store: Store): Endpoint[] {
  const validTemplate = (body: unknown): TemplateBody => storableTemplate(body, store.catalogs.get());

  return [
    defineEndpoint({
      operationId: 'listTemplates',
      summary: "The account's templates, newest first",
      query: templatesQuerySchema,
      response: { status: 200, schema: paginated(templateSchema), description: 'A page of templates' },
      handler: ({ caller, query, reserveResponseBytes }) => {
        const page = store.templates.listJson(caller.accountId, query, reserveResponseBytes);
        // A cached page is at hand: sent without a turn through the microtask queue.
        return page instanceof Promise ? page.then((parts) => jsonText(parts)) : jsonText(page);
      },
    }),
    defineEndpoint({
      operationId: 'listPresets',
      summary: 'Starter templates; each seedPayload can be POSTed as it is',
      query: pageQuerySchema,
      response: { status: 200, schema: paginated(presetSchema), description: 'A page of presets' },
      handler: ({ query }) => store.presets.list(query.page, query.limit),
    }),
    defineEndpoint({
      operationId: 'createTemplate',
      summary: 'Create a template (counts against the plan limit)',
      body: templateBodySchema,
      parseBody: validTemplate,
      bodyExample: demoBody(0),
      errors: ['PLAN_LIMIT_EXCEEDED'],
      response: { status: 201, schema: templateSchema, description: 'The stored template' },
      handler: ({ caller, body }) => {
        const created = store.templates.create(caller.accountId, caller.userId, body);
        if ('limitExceeded' in created) {
          throw new ApiError('PLAN_LIMIT_EXCEEDED', `The plan allows ${created.limit} templates per account`);
        }
        return withHeaders(created, { location: `/api/v2/templates/${created.id}` });
      },
    }),
    defineEndpoint({
      operationId: 'getTemplate',
      summary: 'One template',
      response: { status: 200, schema: templateSchema, description: 'The template' },
      handler: ({ caller, params }) => {
        const document = store.templates.getJson(caller.accountId, params.id);
        if (document === null) throw notFound('Template');
        return jsonText(document);
      },
    }),
    defineEndpoint({
      operationId: 'replaceTemplate',
      summary: 'Replace the whole template (not a merge)',
      // The stored text is enough to know it exists: not parsed for that.
      found: { what: 'Template', exists: (caller, id) => store.templates.getJson(caller.accountId, id) !== null },
      body: templateBodySchema,
      parseBody: validTemplate,
      bodyExample: demoBody(1),
      response: { status: 200, schema: templateSchema, description: 'The stored template' },
      handler: ({ caller, params, body }) => {
        const replaced = store.templates.replace(caller.accountId, params.id, body);
        if (!replaced) throw notFound('Template');
        return replaced;
      },
    }),
    defineEndpoint({
      operationId: 'deleteTemplate',
      summary: 'Delete the template',
      response: { status: 204, description: 'Deleted' },
      handler: ({ caller, params }) => {
        if (!store.templates.delete(caller.accountId, params.id)) throw notFound('Template');
      },
    }),
    defineEndpoint({
      operationId: 'validateFormula',
      summary: 'Check a Custom_Index formula with the parser used when saving templates',
      body: validateFormulaBodySchema,
      bodyExample: { formula: customFormula },
      response: { status: 200, schema: validateFormulaResultSchema, description: 'The verdict', example: { valid: true, usesL: true } },
      handler: ({ body: { formula } }) => {
        const rules = formulaRulesOf(store.catalogs.vegetationIndexDefaults());
        const check = checkFormula(formula, rules);
        if (check.valid) return { valid: true, usesL: check.usesL };
        return {
          valid: false,
          usesL: check.usesL,
          errors: check.errors.map(({ message, offset, length }) => ({ message, offset, length })),
        };
      },
    }),
  ];
}
