import type { Dispatcher } from 'undici';
import { requestKindOfRequest } from '../../../../contract/endpoints.js';
import { NetworkError, ResponseTooLargeError, UnexpectedResponseError } from '../../../../client/errors.js';
import { RateLimitBuckets, retryAfterMs } from '../../../../client/rate-limit.js';
import type { Clock } from '../../../cmdutil/context.js';
import { AnswersTooLarge, MAX_KEPT_BYTES } from './kept.js';
import type { Answer, KeyUse, StepRequest, Unanswered } from './step.js';

/** The keys a run sends: the account's, and those of the optional checks when given. */
export interface Keys {
  account: string;
  subUser?: string;
  otherAccount?: string;
}

/** A key the service never issued, shaped as its keys are. */
const NOT_ISSUED_KEY = `rctl_${'A'.repeat(43)}`;

/** The key a request carries. */
export function keyFor(use: KeyUse | undefined, keys: Keys): string | undefined {
  if (use === 'none') return undefined;
  if (use === 'wrong') return NOT_ISSUED_KEY;
  return use === undefined || use === 'account' ? keys.account : keys[use];
}

/** Whose rate-limit buckets a request counts against: an account's (a sub-user shares it), or the client address's. */
const bucketsOf = (use: KeyUse | undefined): string => (use === 'otherAccount' ? 'otherAccount' : use === 'none' || use === 'wrong' ? 'address' : 'account');

export interface PacedOptions {
  baseUrl: string;
  keys: Keys;
  clock: Clock;
  /** Requests this service may be sent in all (retries and cleanup included). */
  budget: number;
  /** The clock time by which the scenario's requests must be done. */
  deadline: number | (() => number);
  signal: AbortSignal;
  dispatcher?: Dispatcher;
  /** Whose answers, for messages: "the target's answers", "serve's answers". */
  whose: string;
  /** Told of every answer, 429s included, as it comes: what the specification says of headers. */
  observe?: (request: StepRequest, answer: Answer, at: number) => void;
  /** Told before each wait for a rate limit: how long, and why. */
  onWait?: (ms: number, why: string) => void;
}

/** What one request may take: until when, until what signal, how much of the budget; whether its answer is kept. */
interface Limits {
  deadline: () => number;
  signal: AbortSignal;
  budget: number;
  kept: boolean;
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
  /** Milliseconds spent waiting for the service's rate limits. */
  waited = 0;
  private readonly buckets = new Map<string, RateLimitBuckets>();

  constructor(
    private readonly options: PacedOptions,
    private readonly reserve: () => number = () => 0,
  ) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** A scenario request: not sent once interrupted, over budget or out of time; its answer is kept, so bounded. */
  send(request: StepRequest): Promise<Answer | Unanswered> {
    const { deadline } = this.options;
    return this.exchange(request, { deadline: typeof deadline === 'number' ? () => deadline : deadline, signal: this.options.signal, budget: this.options.budget - this.reserve(), kept: true });
  }

  /**
   * A cleanup request: sent even after an interrupt, within its own deadline and the whole
   * budget. Nothing of its answer is kept, so it is read as far as the client reads any (64 MiB).
   */
  sendCleanup(request: StepRequest, deadline: number): Promise<Answer | Unanswered> {
    return this.exchange(request, { deadline: () => deadline, signal: AbortSignal.timeout(Math.max(1, deadline - this.options.clock.now())), budget: this.options.budget, kept: false });
  }

  private bucketsFor(request: StepRequest): RateLimitBuckets {
    const owner = bucketsOf(request.key);
    let buckets = this.buckets.get(owner);
    if (!buckets) this.buckets.set(owner, (buckets = new RateLimitBuckets(this.options.clock.now)));
    return buckets;
  }

  private async exchange(request: StepRequest, limits: Limits): Promise<Answer | Unanswered> {
    const { clock } = this.options;
    const { deadline, signal, budget } = limits;
    const kind = requestKindOfRequest(request.method, request.path) === 'read' ? 'reads' : 'writes';
    const buckets = this.bucketsFor(request);
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) return { unanswered: 'interrupted' };
      if (this.sent >= budget) return { unanswered: 'request budget spent' };
      const waitMs = buckets.waitMs(kind);
      if (clock.now() + waitMs >= deadline()) return { unanswered: 'out of time' };
      if (waitMs > 0) await this.wait(waitMs, `its ${kind === 'reads' ? 'read' : 'write'} limit is spent`, signal);
      if (signal.aborted) return { unanswered: 'interrupted' };
      const answer = await this.sendOnce(request, Math.min(REQUEST_TIMEOUT_MS, deadline() - clock.now()), signal, limits.kept);
      if ('unanswered' in answer) return answer;
      this.options.observe?.(request, answer, clock.now());
      buckets.remember(answer.headers);
      if (answer.status !== 429) return answer;
      const retryMs = retryAfterMs(answer.headers['retry-after'], clock.now());
      if (attempt >= RATE_LIMIT_RETRIES || clock.now() + retryMs >= deadline()) return { unanswered: 'rate limited (429)' };
      await this.wait(retryMs, 'it answered 429', signal);
    }
  }

  private async wait(ms: number, why: string, signal: AbortSignal): Promise<void> {
    this.options.onWait?.(ms, why);
    this.waited += ms;
    await this.options.clock.sleep(ms, signal);
  }

  private async sendOnce(request: StepRequest, timeoutMs: number, signal: AbortSignal, kept: boolean): Promise<Answer | Unanswered> {
    if (timeoutMs <= 0) return { unanswered: 'out of time' };
    const { sendOnce } = await import('../../../../client/transport.js');
    const { clock, dispatcher } = this.options;
    const apiKey = keyFor(request.key, this.options.keys);
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      for (const each of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(each));
    }
    this.sent += 1;
    try {
      const result = await sendOnce(
        {
          baseUrl: this.options.baseUrl,
          ...(apiKey !== undefined ? { apiKey } : {}),
          sleep: clock.sleep,
          now: clock.now,
          timeoutMs,
          ...(kept ? { maxResponseBytes: MAX_KEPT_BYTES } : {}),
          ...(dispatcher ? { dispatcher } : {}),
        },
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
      if (error instanceof ResponseTooLargeError && !kept) return { unanswered: 'its answer passed 64 MiB' };
      if (error instanceof ResponseTooLargeError) throw new AnswersTooLarge(this.options.whose, `at ${request.label ?? `${request.method} ${request.path}`}, one answer alone`);
      throw error;
    }
  }
}
