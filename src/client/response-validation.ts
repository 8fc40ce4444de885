import type { z } from 'zod';
import type { CheckedSchemas, CheckName } from '../contract/client-schemas.js';
import * as checks from './generated/response-checks.js';

/**
 * What the client reads a body as: a generated check (no zod) and the contract's schema behind
 * it. The check may refuse more than the schema, never less, so a body it passes is the
 * schema's; one it refuses goes to the schema (zod loads only then), whose verdict and
 * message are the answer.
 */
export interface ResponseShape<T> {
  readonly check: (body: unknown) => boolean;
  /** The contract's schema, loading zod and building the schemas on first use. */
  readonly schema: () => Promise<z.ZodType<T>>;
}

type Shapes = { [K in CheckName]: ResponseShape<z.infer<CheckedSchemas[K]>> };
export const shapes = Object.fromEntries(
  (Object.keys(checks) as CheckName[]).map((name) => [
    name,
    {
      // Read on the call: the build loads the checks' file on the first one (scripts/build.mjs).
      check: (body: unknown) => checks[name](body),
      schema: async () => (await import('../contract/client-schemas.js')).checkedSchemas[name],
    },
  ]),
) as unknown as Shapes;

/** The body as `shape`, or zod's error when the contract's schema refuses it. */
export async function conforms<T>(
  shape: ResponseShape<T>,
  body: unknown,
  options?: { reportInput?: boolean },
): Promise<{ success: true; data: T } | { success: false; error: z.ZodError }> {
  if (shape.check(body)) return { success: true, data: body as T };
  // No JIT: compiling a fast path for the schema costs more than one answer's parse saves.
  const parsed = (await shape.schema()).safeParse(body, { jitless: true, ...options });
  return parsed.success ? { success: true, data: body as T } : { success: false, error: parsed.error };
}
