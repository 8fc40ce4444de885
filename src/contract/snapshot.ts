import { z } from 'zod';
import { reportTypesCatalogSchema, statisticsCatalogSchema, vegetationIndexDefaultsSchema } from './catalogs.js';
import { timestampSchema } from './common.js';
import { jsonSchemaOf } from './json-schema.js';
import { analysisSchema, presetSchema, queueRunSchema, queueRunStepSchema, queueSchema } from './resources.js';
import { templateSchema } from './template.js';

/**
 * The embedded service's whole state as one JSON document (`admin export`, `admin import`,
 * `serve --import`, `serve --export-on-exit`). Rows are listed table by table in insertion
 * order, so an import recreates every list's order, ties included. Keys appear only as their
 * SHA-256 hashes. Bump SNAPSHOT_FORMAT_VERSION on any change a reader of the old format
 * could not take; a reader refuses a newer version.
 */
export const SNAPSHOT_FORMAT = 'reportctl-snapshot';
export const SNAPSHOT_FORMAT_VERSION = 1;

const accountIdField = { accountId: z.string().min(1) };

/** Snapshots written before unfinished steps left these out carry them as null. */
const snapshotQueueRunSchema = queueRunSchema.extend({
  steps: z.array(queueRunStepSchema.extend({ analysisId: z.string().nullish(), finishedAt: timestampSchema.nullish() })),
});

export const snapshotSchema = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_FORMAT_VERSION),
  exportedAt: timestampSchema,
  catalogs: z.strictObject({
    reportTypes: reportTypesCatalogSchema,
    statistics: statisticsCatalogSchema,
    vegetationIndexDefaults: vegetationIndexDefaultsSchema,
    updatedAt: timestampSchema,
  }),
  /** In their curated order. */
  presets: z.array(presetSchema),
  accounts: z.array(
    z.strictObject({
      id: z.string().min(1),
      name: z.string(),
      templateLimit: z.number().int().min(0),
      createdAt: timestampSchema,
    }),
  ),
  users: z.array(
    z.strictObject({
      id: z.string().min(1),
      ...accountIdField,
      name: z.string(),
      role: z.enum(['owner', 'sub-user']),
      createdAt: timestampSchema,
    }),
  ),
  apiKeys: z.array(
    z.strictObject({
      id: z.string().min(1),
      userId: z.string().min(1),
      /** SHA-256 of the key, hex: the key itself is never stored, so never exported. */
      keyHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash in hex'),
      prefix: z.string(),
      createdAt: timestampSchema,
      revokedAt: timestampSchema.nullable(),
    }),
  ),
  /** Each template exactly as the API returns it. */
  templates: z.array(z.strictObject({ ...accountIdField, template: templateSchema })),
  queues: z.array(z.strictObject({ ...accountIdField, queue: queueSchema })),
  queueRuns: z.array(
    z.strictObject({
      ...accountIdField,
      queueRun: snapshotQueueRunSchema,
      /** The step (1-based) set to fail by `admin queue-runs enqueue --fail-at-step`. */
      failAtStep: z.number().int().min(1).nullable(),
    }),
  ),
  analyses: z.array(z.strictObject({ ...accountIdField, analysis: analysisSchema })),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** The format's JSON Schema (`reportctl admin export --schema`). */
export function snapshotJsonSchema(): unknown {
  return jsonSchemaOf(snapshotSchema, 'input');
}
