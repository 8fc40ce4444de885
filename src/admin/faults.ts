import { faultMethods, faultStatuses, newFaultSchema, type Fault, type NewFault } from '../contract/faults.js';
import { issuePath } from '../contract/index.js';
import type { Store } from '../server/store/index.js';
import { AdminError } from './errors.js';

/**
 * The compact notation of `serve --fault` (and of `admin faults list`):
 *
 *   METHOD /PATH=ACTION[xCOUNT][@RATE][#ACCOUNT]
 *
 * ACTION is a status (429, 500, 502, 503, 504), `latency:MS` or `reset`; METHOD may be `*`;
 * PATH may be a route (`/api/v2/templates/:id`) or end in `*` (a prefix).
 * `GET /api/v2/templates=503x2` responds to the next two template lists with 503;
 * `* /api/*=latency:500@0.5` delays half of all requests by 500 ms.
 */
export const FAULT_SPEC_SYNTAX = 'METHOD /PATH=ACTION[xCOUNT][@RATE][#ACCOUNT]';
const SPEC = /^(?<route>.+?)=(?<action>429|500|502|503|504|latency:\d+|reset)(?:x(?<count>\d+))?(?:@(?<rate>\d*\.?\d+))?(?:#(?<account>\S+))?$/;

/** `METHOD /path`, as `--route` takes it. */
export function parseRoute(text: string): { method: NewFault['method']; path: string } {
  const match = /^\s*(\S+)\s+(\/\S*)\s*$/.exec(text);
  const method = match?.[1]!.toUpperCase();
  if (!match || !(faultMethods as readonly string[]).includes(method!)) {
    throw new AdminError('invalid', `route "${text}": expected METHOD /PATH with a method of ${faultMethods.join(', ')} (e.g. "GET /api/v2/templates")`);
  }
  return { method: method as NewFault['method'], path: match[2]! };
}

/** What `admin faults add` gathers from its flags. */
export interface FaultRequest {
  route: string;
  status?: number | undefined;
  latencyMs?: number | undefined;
  resetConnection?: boolean | undefined;
  rate?: number | undefined;
  count?: number | undefined;
  accountId?: string | undefined;
}

/** One fault from flags, checked against the contract; AdminError('invalid') says what is wrong. */
export function newFault(request: FaultRequest): NewFault {
  const actions = [request.status !== undefined, request.latencyMs !== undefined, request.resetConnection === true].filter(Boolean).length;
  if (actions !== 1) throw new AdminError('invalid', 'give exactly one of --status, --latency and --reset-connection');
  const kind: NewFault['kind'] = request.status !== undefined ? 'status' : request.latencyMs !== undefined ? 'latency' : 'reset-connection';
  const parsed = newFaultSchema.safeParse({
    ...parseRoute(request.route),
    kind,
    status: request.status ?? null,
    latencyMs: request.latencyMs ?? null,
    rate: request.rate ?? 1,
    remaining: request.count ?? null,
    accountId: request.accountId ?? null,
  });
  if (!parsed.success) {
    const flag: Record<string, string> = { status: `--status (one of ${faultStatuses.join(', ')})`, latencyMs: '--latency', rate: '--rate', remaining: '--count', path: '--route' };
    throw new AdminError(
      'invalid',
      parsed.error.issues.map((issue) => `${flag[issuePath(issue.path)] ?? issuePath(issue.path)}: ${issue.message}`).join('; '),
    );
  }
  return parsed.data;
}

/** `GET /api/v2/templates=503x2@0.5#ACCOUNT` → a fault; AdminError('invalid') names the spec. */
export function parseFaultSpec(spec: string): NewFault {
  const match = SPEC.exec(spec.trim());
  if (!match?.groups) {
    throw new AdminError(
      'invalid',
      `--fault "${spec}": expected ${FAULT_SPEC_SYNTAX} with an ACTION of ${faultStatuses.join(', ')}, latency:MS or reset, e.g. "GET /api/v2/templates=503x2"`,
    );
  }
  const { route, action, count, rate, account } = match.groups as Record<string, string | undefined>;
  try {
    return newFault({
      route: route!,
      ...(action === 'reset'
        ? { resetConnection: true }
        : action!.startsWith('latency:')
          ? { latencyMs: Number(action!.slice('latency:'.length)) }
          : { status: Number(action) }),
      ...(count !== undefined ? { count: Number(count) } : {}),
      ...(rate !== undefined ? { rate: Number(rate) } : {}),
      ...(account !== undefined ? { accountId: account } : {}),
    });
  } catch (error) {
    throw new AdminError('invalid', `--fault "${spec}": ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A fault (with the uses it has left) in the compact notation `serve --fault` takes. */
export function faultSpec(fault: Fault | NewFault): string {
  const action = fault.kind === 'status' ? String(fault.status) : fault.kind === 'latency' ? `latency:${fault.latencyMs}` : 'reset';
  const count = fault.remaining !== null ? `x${fault.remaining}` : '';
  return `${fault.method} ${fault.path}=${action}${count}${fault.rate < 1 ? `@${fault.rate}` : ''}${fault.accountId ? `#${fault.accountId}` : ''}`;
}

export function addFault(store: Store, fault: NewFault): Fault {
  if (fault.accountId !== null && !store.accounts.get(fault.accountId)) throw new AdminError('not-found', `no account ${fault.accountId}`);
  return store.faults.add(fault);
}
