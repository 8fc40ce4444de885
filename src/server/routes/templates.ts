import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  formulaRulesOf,
  MAX_TEMPLATE_BYTES,
  paginated,
  pageQuerySchema,
  presetSchema,
  templateBodySchema,
  templateSchema,
  templatesQuerySchema,
  validateFormulaBodySchema,
  validateFormulaResultSchema,
  validateTemplateBody,
  type TemplateBody,
} from '../../contract/index.js';
import { checkFormula } from '../../formula/check.js';
import { ApiError, notFound, parseOr400, validationFailed } from '../errors.js';
import type { Store } from '../store/index.js';
import { callerOf } from '../auth.js';
import { sendJsonParts, sendJsonText } from './json-text.js';
import { presets } from '../../contract/default-catalogs.js';
import { demoTemplatePresetIds } from '../seed/demo.js';
import type { Endpoint } from './table.js';

const idParam = (request: FastifyRequest) => (request.params as { id: string }).id;

/** The document's examples: the demo account's templates, made from presets. */
const demoBody = (index: number) => {
  const { presetId, name } = demoTemplatePresetIds[index]!;
  return { ...presets.find((preset) => preset.id === presetId)!.seedPayload, name };
};
const customFormula = (demoBody(3) as { formula?: string }).formula;

export function templateEndpoints(store: Store): Endpoint[] {
  /** Valid, and small enough to store: a page of 100 templates stays under 26 MiB. */
  function validTemplate(body: unknown): TemplateBody {
    const validation = validateTemplateBody(body, store.catalogs.get());
    if (!validation.success) throw validationFailed(validation.issues);
    if (Buffer.byteLength(JSON.stringify(validation.template)) > MAX_TEMPLATE_BYTES) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `A stored template is at most ${MAX_TEMPLATE_BYTES / 1024} KiB (as JSON, with its defaults)`);
    }
    return validation.template;
  }

  return [
    {
      method: 'GET',
      url: '/api/v2/templates',
      operationId: 'listTemplates',
      kind: 'read',
      auth: true,
      summary: "The account's templates, newest first",
      query: templatesQuerySchema,
      response: { status: 200, schema: paginated(templateSchema), description: 'A page of templates' },
      handler: async (request, reply) => {
        const query = parseOr400(templatesQuerySchema, request.query, 'Query');
        return sendJsonParts(reply, await store.templates.listJson(callerOf(request).accountId, query));
      },
    },
    {
      method: 'GET',
      url: '/api/v2/templates/presets',
      operationId: 'listPresets',
      kind: 'read',
      auth: true,
      summary: 'Starter templates; each seedPayload can be POSTed as it is',
      query: pageQuerySchema,
      response: { status: 200, schema: paginated(presetSchema), description: 'A page of presets' },
      handler: (request) => {
        const query = parseOr400(pageQuerySchema, request.query, 'Query');
        return store.presets.list(query.page, query.limit);
      },
    },
    {
      method: 'POST',
      url: '/api/v2/templates',
      operationId: 'createTemplate',
      kind: 'write',
      auth: true,
      summary: 'Create a template (counts against the plan limit)',
      body: templateBodySchema,
      bodyExample: demoBody(0),
      errors: ['PLAN_LIMIT_EXCEEDED'],
      response: { status: 201, schema: templateSchema, description: 'The stored template' },
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        const caller = callerOf(request);
        const template = validTemplate(request.body);
        const created = store.templates.create(caller.accountId, caller.userId, template);
        if ('limitExceeded' in created) {
          throw new ApiError('PLAN_LIMIT_EXCEEDED', `The plan allows ${created.limit} templates per account`);
        }
        return reply.code(201).header('location', `/api/v2/templates/${created.id}`).send(created);
      },
    },
    {
      method: 'GET',
      url: '/api/v2/templates/:id',
      operationId: 'getTemplate',
      kind: 'read',
      auth: true,
      summary: 'One template',
      response: { status: 200, schema: templateSchema, description: 'The template' },
      handler: (request, reply) => {
        const document = store.templates.getJson(callerOf(request).accountId, idParam(request));
        if (document === null) throw notFound('Template');
        return sendJsonText(reply, document);
      },
    },
    {
      method: 'PUT',
      url: '/api/v2/templates/:id',
      operationId: 'replaceTemplate',
      kind: 'write',
      auth: true,
      summary: 'Replace the whole template (not a merge)',
      body: templateBodySchema,
      bodyExample: demoBody(1),
      response: { status: 200, schema: templateSchema, description: 'The stored template' },
      handler: (request) => {
        const accountId = callerOf(request).accountId;
        const id = idParam(request);
        if (!store.templates.get(accountId, id)) throw notFound('Template');
        const replaced = store.templates.replace(accountId, id, validTemplate(request.body));
        if (!replaced) throw notFound('Template');
        return replaced;
      },
    },
    {
      method: 'DELETE',
      url: '/api/v2/templates/:id',
      operationId: 'deleteTemplate',
      kind: 'write',
      auth: true,
      summary: 'Delete the template',
      response: { status: 204, description: 'Deleted' },
      handler: (request, reply) => {
        if (!store.templates.delete(callerOf(request).accountId, idParam(request))) throw notFound('Template');
        return reply.code(204).send();
      },
    },
    {
      method: 'POST',
      url: '/api/v2/templates/validate-formula',
      operationId: 'validateFormula',
      kind: 'read',
      auth: true,
      summary: 'Check a Custom_Index formula with the parser used when saving templates',
      body: validateFormulaBodySchema,
      bodyExample: { formula: customFormula },
      response: { status: 200, schema: validateFormulaResultSchema, description: 'The verdict', example: { valid: true, usesL: true } },
      handler: (request) => {
        const { formula } = parseOr400(validateFormulaBodySchema, request.body);
        const rules = formulaRulesOf(store.catalogs.vegetationIndexDefaults());
        const check = checkFormula(formula, rules);
        if (check.valid) return { valid: true, usesL: check.usesL };
        return {
          valid: false,
          usesL: check.usesL,
          errors: check.errors.map(({ message, offset, length }) => ({ message, offset, length })),
        };
      },
    },
  ];
}
