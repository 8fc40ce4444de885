import { z } from 'zod';

/**
 * Refinements the generated response checks reproduce (scripts/response-checks.mjs). zod's
 * JSON Schema leaves refinements out, so the generator refuses any schema with one unless it
 * is registered here with the JSON keywords that say the same: standard ones (`uniqueItems`,
 * `anyOf`) or one the generator defines (`elementFitsPage`, `stopsAscend`, `maxJsonLength`).
 * These keywords go only into the checks, not into the OpenAPI document.
 */
export const expressedBy = z.registry<{ keywords: Record<string, unknown> }>();

/** Registers `schema`'s refinements as covered by `keywords` (the registration must stay the outermost call). */
export function expressedAs<T extends z.ZodType>(schema: T, keywords: Record<string, unknown>): T {
  expressedBy.add(schema, { keywords });
  return schema;
}
