import type { Dispatcher } from 'undici';
import { requestKindOfRequest } from '../../../../contract/endpoints.js';
import { NetworkError, UnexpectedResponseError } from '../../../../client/errors.js';
import { RateLimitBuckets, retryAfterMs } from '../../../../client/rate-limit.js';
import type { Clock } from '../../../cmdutil/context.js';
import { keyFor, type Answer, type StepRequest } from './context.js';

/** Why a request was not sent, or its answer is no use: the step is not comparable. */
export interface Unanswered {
  unanswered: string;
}

export interface PacedOptions {
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  /** Requests this service may be sent in all (retries and cleanup included). */
  budget: number;
  /** The clock time by which the scenario's requests must be done. */
  deadline: number;
  signal: AbortSignal;
  dispatcher?: Dispatcher;
}

/** 429s waited out per request before the step is given up as not comparable. */
const RATE_LIMIT_RETRIES = 3;
/** The longest a single request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * One service, sent one request at a time under its rate limits (what its headers say is
 * left), within a request budget and a deadline. A scenario request leaves `reserve()`
 * requests of the budget for cleanup; cleanup requests may use them.
 */
export class PacedService {
  sent = 0;
  private readonly buckets: RateLimitBuckets;

  constructor(
    private readonly options: PacedOptions,
    private readonly reserve: () => number = () => 0,
  ) {
    this.buckets = new RateLimitBuckets(options.clock.now);
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** A scenario request: not sent once interrupted, over budget or out of time. */
  send(request: StepRequest): Promise<Answer | Unanswered> {
    return this.exchange(request, this.options.deadline, this.options.signal, this.options.budget - this.reserve());
  }

  /** A cleanup request: sent even after an interrupt, within its own deadline and the whole budget. */
  sendCleanup(request: StepRequest, deadline: number): Promise<Answer | Unanswered> {
    return this.exchange(request, deadline, AbortSignal.timeout(Math.max(1, deadline - this.options.clock.now())), this.options.budget);
  }

  private async exchange(request: StepRequest, deadline: number, signal: AbortSignal, budget: number): Promise<Answer | Unanswered> {
    const { clock } = this.options;
    const kind = requestKindOfRequest(request.method, request.path) === 'read' ? 'reads' : 'writes';
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) return { unanswered: 'interrupted' };
      if (this.sent >= budget) return { unanswered: 'request budget spent' };
      const waitMs = this.buckets.waitMs(kind);
      if (clock.now() + waitMs >= deadline) return { unanswered: 'out of time' };
      if (waitMs > 0) await clock.sleep(waitMs, signal);
      if (signal.aborted) return { unanswered: 'interrupted' };
      const answer = await this.sendOnce(request, Math.min(REQUEST_TIMEOUT_MS, deadline - clock.now()), signal);
      if ('unanswered' in answer) return answer;
      this.buckets.remember(answer.headers);
      if (answer.status !== 429) return answer;
      const retryMs = retryAfterMs(answer.headers['retry-after'], clock.now());
      if (attempt >= RATE_LIMIT_RETRIES || clock.now() + retryMs >= deadline) return { unanswered: 'rate limited (429)' };
      await clock.sleep(retryMs, signal);
    }
  }

  private async sendOnce(request: StepRequest, timeoutMs: number, signal: AbortSignal): Promise<Answer | Unanswered> {
    if (timeoutMs <= 0) return { unanswered: 'out of time' };
    const { sendOnce } = await import('../../../../client/transport.js');
    const { clock, dispatcher } = this.options;
    const apiKey = keyFor(request.key, this.options.apiKey);
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, String(value));
    this.sent += 1;
    try {
      const result = await sendOnce(
        { baseUrl: this.options.baseUrl, ...(apiKey !== undefined ? { apiKey } : {}), sleep: clock.sleep, now: clock.now, timeoutMs, ...(dispatcher ? { dispatcher } : {}) },
        request.method,
        url.toString(),
        request.body,
        signal,
        request.ifNoneMatch !== undefined ? { 'if-none-match': request.ifNoneMatch } : {},
      );
      return { status: result.status, headers: result.headers, body: result.body };
    } catch (error) {
      if (signal.aborted) return { unanswered: 'interrupted' };
      if (error instanceof NetworkError && error.timedOut) return { unanswered: `no answer within ${Math.round(timeoutMs / 1000)} s` };
      if (error instanceof UnexpectedResponseError) return { unanswered: 'the answer is not JSON' };
      throw error;
    }
  }
}
