import { z } from 'zod';
import { analysisTypeSchema } from './common.js';
import { analysisStatusSchema } from './resources.js';

/** The file of `admin seed --file`: queues, runs driven through their life cycle, analyses. */
export const fixturesSchema = z.strictObject({
  queues: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        steps: z.array(z.strictObject({ lotId: z.string().min(1), analysisType: analysisTypeSchema })).min(1),
      }),
    )
    .optional(),
  runs: z
    .array(
      z.strictObject({
        /** An index into this file's `queues`, or the id of a queue the account already has. */
        queue: z.union([z.number().int().min(0), z.string().min(1)]),
        name: z.string().min(1).optional(),
        estimatedHa: z.number().min(0).optional(),
        failAtStep: z.number().int().min(1).optional(),
        /** How many times to advance the run; calls after the run has finished do nothing. */
        advance: z.number().int().min(0).max(1000).optional(),
        /** Cancel the run after advancing it (an error if it has finished by then). */
        cancel: z.boolean().optional(),
      }),
    )
    .optional(),
  analyses: z
    .array(z.strictObject({ lotId: z.string().min(1), analysisType: analysisTypeSchema, status: analysisStatusSchema }))
    .optional(),
});
export type Fixtures = z.infer<typeof fixturesSchema>;
export type RunFixture = NonNullable<Fixtures['runs']>[number];
