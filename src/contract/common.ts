import { z } from 'zod';
import { analysisTypes, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, reportCategories } from './vocabulary.js';

export const analysisTypeSchema = z.enum(analysisTypes);
export type AnalysisType = z.infer<typeof analysisTypeSchema>;

export const reportCategorySchema = z.enum(reportCategories);
export type ReportCategory = z.infer<typeof reportCategorySchema>;

/** ISO 8601 UTC with milliseconds, as every timestamp the service writes. */
export const timestampSchema = z.iso.datetime({ precision: 3 });

/**
 * A string the service draws from `values` today. Readers accept any string (the real service
 * may add values); the OpenAPI document lists these as its enum.
 */
export const openEnum = (values: readonly string[]) => z.string().meta({ enum: [...values] });

export const hexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a9850');

/** One page of any list. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.looseObject({
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(100),
    data: z.array(item),
  });
}
export type Paginated<T> = z.infer<ReturnType<typeof paginated<z.ZodType<T>>>>;


/** Pages far past the end are fine (200, empty), as long as the offset stays a safe integer. */
const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / PAGE_SIZE_MAX);

/** A positive integer sent as a query string. Anything else (1.5, "", "abc", a repeated
 * parameter) is rejected at the parameter's own name. */
function positiveIntParam(max: number) {
  return z
    .string()
    .regex(/^\d{1,15}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));
}

/** The same bounds as numbers in a JSON body (the deprecated v0 listing). */
export const pageBodyShape = {
  page: z.number().int().min(1).max(MAX_PAGE).optional(),
  limit: z.number().int().min(1).max(PAGE_SIZE_MAX).optional(),
};

export const pageQueryShape = {
  page: positiveIntParam(MAX_PAGE).default(1),
  limit: positiveIntParam(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};
