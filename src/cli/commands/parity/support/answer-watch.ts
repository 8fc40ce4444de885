// What the specification says of every answer, whatever the step: the rate-limit headers (120
// reads and 30 writes a minute, X-RateLimit-Remaining on every answer and down by one a
// request, Retry-After in seconds) and the error body's shape. Told of each answer as it comes
// (429s too, which a step never sees), with the headers' numbers before they are normalised.
import { endpoints, requestKindOfRequest, type OperationId } from '../../../../contract/endpoints.js';
import { shownValue } from './spec-rules.js';
import type { Answer, Finding, Side, SpecificationFinding, StepRequest } from './step.js';

const LIMITS = { reads: 120, writes: 30 } as const;
const WINDOW_SECONDS = 60;

/** The operation a request is for, by its method and path. */
export function operationOf(method: string, path: string): OperationId {
  for (const [operation, endpoint] of Object.entries(endpoints)) {
    const pattern = new RegExp(`^${endpoint.path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`);
    if (endpoint.method === method && pattern.test(path)) return operation as OperationId;
  }
  return 'listTemplates';
}

interface Seen {
  remaining: number;
  reset: number;
  at: number;
}

const integer = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined);

/** Each rule's first finding, and how often it was found again. */
export class AnswerWatch {
  private readonly found = new Map<string, Finding & { times: number }>();
  /** The last answer of each of the account's buckets, for the countdown. */
  private readonly last = new Map<string, Seen>();

  constructor(private readonly side: Side) {}

  findings(): Finding[] {
    return [...this.found.values()].map(({ times, ...finding }) => (times > 1 ? { ...finding, found: `${finding.found} (and ${times - 1} more)` } : finding));
  }

  observe(request: StepRequest, answer: Answer, at: number): void {
    const report = (finding: SpecificationFinding) => this.report(request, finding);
    const remaining = integer(answer.headers['x-ratelimit-remaining']);
    if (remaining === undefined) report({ rule: 'rate-limit.remaining', expected: 'X-RateLimit-Remaining on every answer, a whole number', found: `${shownValue(answer.headers['x-ratelimit-remaining'] ?? '(absent)')} on a ${answer.status}` });
    if (answer.status === 429 && integer(answer.headers['retry-after']) === undefined) {
      report({ rule: 'rate-limit.retry-after', expected: 'Retry-After in whole seconds on a 429', found: shownValue(answer.headers['retry-after'] ?? '(absent)') });
    }
    if (answer.status >= 400) this.errorBody(request, answer, report);
    if (request.key === 'none' || request.key === 'wrong') return;
    this.limits(request, answer, report);
    if (request.key === 'subUser') this.last.clear();
    else if ((request.key ?? 'account') === 'account' && remaining !== undefined) this.countdown(request, answer, remaining, at, report);
  }

  private report(request: StepRequest, finding: SpecificationFinding): void {
    const known = this.found.get(`${finding.rule}\n${finding.expected}`);
    if (known) known.times += 1;
    else this.found.set(`${finding.rule}\n${finding.expected}`, { ...finding, side: this.side, step: request.label ?? `${request.method} ${request.path}`, operation: operationOf(request.method, request.path), times: 1 });
  }

  /** The advertised limit of the request's kind (validate-formula's kind is not stated: either) and its window. */
  private limits(request: StepRequest, { headers }: Answer, report: (finding: SpecificationFinding) => void): void {
    const limit = integer(headers['x-ratelimit-limit']);
    const kind = requestKindOfRequest(request.method, request.path) === 'read' ? 'reads' : 'writes';
    const either = operationOf(request.method, request.path) === 'validateFormula';
    const allowed: number[] = either ? [LIMITS.reads, LIMITS.writes] : [LIMITS[kind]];
    if (limit === undefined || !allowed.includes(limit)) {
      report({ rule: `rate-limit.${kind}`, expected: `X-RateLimit-Limit ${allowed.join(' or ')} (${either ? 'validate-formula as a read or a write' : kind} a minute)`, found: shownValue(headers['x-ratelimit-limit'] ?? '(absent)') });
    }
    const window = /;w=(\d+)/.exec(headers['ratelimit-policy'] ?? '')?.[1];
    if (window !== undefined && Number(window) !== WINDOW_SECONDS) report({ rule: 'rate-limit.window', expected: `a window of ${WINDOW_SECONDS} s (RateLimit-Policy w=${WINDOW_SECONDS})`, found: `w=${window}` });
  }

  /** Down by one from the last answer of the same bucket, unless a slot may have freed since (X-RateLimit-Reset). */
  private countdown(request: StepRequest, answer: Answer, remaining: number, at: number, report: (finding: SpecificationFinding) => void): void {
    const policy = /^"?([A-Za-z0-9_-]+)"?/.exec(answer.headers['ratelimit-policy'] ?? '')?.[1];
    if (policy === undefined && operationOf(request.method, request.path) === 'validateFormula') return;
    const bucket = policy ?? requestKindOfRequest(request.method, request.path);
    const before = this.last.get(bucket);
    const reset = integer(answer.headers['x-ratelimit-reset']) ?? 0;
    if (answer.status === 429) return void this.last.delete(bucket);
    this.last.set(bucket, { remaining, reset, at });
    if (before === undefined || before.remaining === 0 || at - before.at >= (before.reset - 1) * 1000) return;
    if (remaining !== before.remaining - 1) report({ rule: 'rate-limit.countdown', expected: 'X-RateLimit-Remaining down by one a request', found: `from ${before.remaining} to ${remaining}` });
  }

  /** Every error body has `error` and `message`; `issues` (each a path and a message) only on a 400, and there on a refused body. */
  private errorBody(request: StepRequest, { status, body }: Answer, report: (finding: SpecificationFinding) => void): void {
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    if (typeof fields?.error !== 'string' || typeof fields.message !== 'string') {
      return report({ rule: 'errors.shape', expected: 'an error body with error and message (strings)', found: `${shownValue(body ?? '(no body)')} on a ${status}` });
    }
    const issues = fields.issues;
    const wellFormed = Array.isArray(issues) && issues.every((issue) => typeof issue?.path === 'string' && typeof issue?.message === 'string');
    if (issues !== undefined && (status !== 400 || !wellFormed)) report({ rule: 'errors.shape', expected: 'issues, each a path and a message, only on a 400', found: `${shownValue(issues)} on a ${status}` });
    if (issues === undefined && status === 400 && request.body !== undefined) report({ rule: 'errors.shape', expected: 'a refused body answered with issues naming each field', found: 'no issues' });
  }
}
