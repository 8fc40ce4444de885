import { z } from 'zod';
import { timestampSchema } from './common.js';

/** The statuses a fault can answer with: the ones clients are expected to ride out or report. */
export const faultStatuses = [429, 500, 502, 503, 504] as const;
export const faultKinds = ['status', 'latency', 'reset-connection'] as const;
export const faultMethods = ['*', 'GET', 'POST', 'PUT', 'DELETE'] as const;

/** Longest injected latency: past the client's default 30 s time-out, short of a stuck test run. */
export const MAX_FAULT_LATENCY_MS = 120_000;

const faultFields = {
  /** `*` for any method. */
  method: z.enum(faultMethods),
  /** A path as requested (`/api/v2/templates`), a route (`/api/v2/templates/:id`), or a prefix ending in `*`. */
  path: z.string().regex(/^\//, 'must start with /'),
  kind: z.enum(faultKinds),
  status: z.union(faultStatuses.map((status) => z.literal(status))).nullable(),
  latencyMs: z.number().int().min(0).max(MAX_FAULT_LATENCY_MS).nullable(),
  /** The chance (0–1) that a matching request is faulted, drawn from `serve --seed`'s source. */
  rate: z.number().min(0).max(1),
  /** Faulted answers left; null: no end. */
  remaining: z.number().int().min(0).nullable(),
  /** Only this account's requests; null: everyone's. */
  accountId: z.string().min(1).nullable(),
};

function kindMatchesFields(fault: { kind: string; status: number | null; latencyMs: number | null }, ctx: z.RefinementCtx) {
  if (fault.kind === 'status' && fault.status === null) ctx.addIssue({ code: 'custom', path: ['status'], message: 'a status fault needs a status' });
  if (fault.kind === 'latency' && fault.latencyMs === null) ctx.addIssue({ code: 'custom', path: ['latencyMs'], message: 'a latency fault needs latencyMs' });
}

/** A fault to add (`admin faults add`, `serve --fault`). */
export const newFaultSchema = z
  .strictObject({ ...faultFields, remaining: z.number().int().min(1).nullable() })
  .superRefine(kindMatchesFields);
export type NewFault = z.infer<typeof newFaultSchema>;

/** A stored fault, as `admin faults list --json` prints it. */
export const faultSchema = z
  .strictObject({ id: z.string(), ...faultFields, createdAt: timestampSchema })
  .superRefine(kindMatchesFields);
export type Fault = z.infer<typeof faultSchema>;
