import { z } from 'zod';
import { analysisTypeSchema, openEnum, pageBodyShape, pageQueryShape, reportCategorySchema, timestampSchema } from './common.js';
import { MAX_FORMULA_LENGTH } from '../formula/rules.js';
import { templateBodySchema } from './template.js';
import { analysisStatuses, analysisTypes, queueRunStatuses, stepStatuses } from './vocabulary.js';

export const queueStepSchema = z.looseObject({
  order: z.number().int().min(1),
  lotId: z.string(),
  analysisType: openEnum(analysisTypes),
});
export const queueSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  steps: z.array(queueStepSchema),
  createdAt: timestampSchema,
});
export type Queue = z.infer<typeof queueSchema>;

export const queueRunStatusSchema = z.enum(queueRunStatuses);
export type QueueRunStatus = z.infer<typeof queueRunStatusSchema>;

export const stepStatusSchema = z.enum(stepStatuses);
export type StepStatus = z.infer<typeof stepStatusSchema>;

export const queueRunStepSchema = z.looseObject({
  order: z.number().int().min(1),
  lotId: z.string(),
  analysisType: openEnum(analysisTypes),
  status: openEnum(stepStatuses),
  // Absent (not null) until the step finishes, as the specification types them: strings.
  analysisId: z.string().optional(),
  finishedAt: timestampSchema.optional(),
});
export type QueueRunStep = z.infer<typeof queueRunStepSchema>;

export const queueRunSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  queueId: z.string(),
  status: openEnum(queueRunStatuses),
  estimatedHa: z.number(),
  steps: z.array(queueRunStepSchema),
  createdAt: timestampSchema,
  startedAt: timestampSchema.nullable(),
  finishedAt: timestampSchema.nullable(),
});
export type QueueRun = z.infer<typeof queueRunSchema>;

export const analysisStatusSchema = z.enum(analysisStatuses);
export const analysisSchema = z.looseObject({
  id: z.string(),
  lotId: z.string(),
  analysisType: openEnum(analysisTypes),
  status: openEnum(analysisStatuses),
  queueRunId: z.string().nullable(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
});
export type Analysis = z.infer<typeof analysisSchema>;

export const presetSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  analysisType: analysisTypeSchema,
  reportCategory: reportCategorySchema,
  seedPayload: z.record(z.string(), z.unknown()),
});
export type Preset = z.infer<typeof presetSchema>;
/** Presets as the server stores them: their seedPayload must be a body POST accepts. */
export const storedPresetSchema = presetSchema.extend({ seedPayload: templateBodySchema });

export const validateFormulaBodySchema = z.strictObject({
  formula: z.string().max(MAX_FORMULA_LENGTH),
});
export const formulaErrorSchema = z.looseObject({
  message: z.string(),
  offset: z.number().int().min(0),
  length: z.number().int().min(0),
});
export const validateFormulaResultSchema = z.looseObject({
  valid: z.boolean(),
  usesL: z.boolean(),
  errors: z.array(formulaErrorSchema).optional(),
});
export type ValidateFormulaResult = z.infer<typeof validateFormulaResultSchema>;

// Queries. Unknown query parameters are ignored, as most HTTP services do.
export const pageQuerySchema = z.looseObject({ ...pageQueryShape });
export const templatesQuerySchema = z.looseObject({
  ...pageQueryShape,
  analysisType: analysisTypeSchema.optional(),
  reportType: z.string().min(1).optional(),
  reportCategory: reportCategorySchema.optional(),
});
export type TemplatesQuery = z.infer<typeof templatesQuerySchema>;
export const queueRunsQuerySchema = z.looseObject({
  ...pageQueryShape,
  status: queueRunStatusSchema.optional(),
});
export type QueueRunsQuery = z.infer<typeof queueRunsQuerySchema>;
export const analysesQuerySchema = z.looseObject({
  ...pageQueryShape,
  lotId: z.string().min(1).optional(),
  analysisType: analysisTypeSchema.optional(),
  status: analysisStatusSchema.optional(),
});
export type AnalysesQuery = z.infer<typeof analysesQuerySchema>;

/**
 * The deprecated v0 listing: filters in a POST body, and only one of them applies. Other
 * fields are ignored, so an old client's extras never turn a working request into a 400;
 * `page` and `limit` page it (100 a page unless `limit` says less).
 */
export const legacyAnalysesBodySchema = z.looseObject({
  lotId: z.string().min(1).optional(),
  analysisType: analysisTypeSchema.optional(),
  status: analysisStatusSchema.optional(),
  ...pageBodyShape,
});
