import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { RequestKind } from '../routes/endpoint.js';
import type { Limits } from '../limits.js';
import { RollingWindowLimiter } from './rolling-window.js';

interface RatePolicy {
  name: 'reads' | 'writes';
  limit: number;
  limitText: string;
  bucketSuffix: string;
  /** The RateLimit-Policy header: the same on every response of the kind. */
  header: string;
  /** The RateLimit header up to the remaining count. */
  stateStart: string;
  /** An account's bucket name, made once per account rather than once per request. */
  accountBuckets: Map<string, string>;
}

/** Bucket names kept per kind; past this many accounts the list starts over. */
const MAX_BUCKET_NAMES = 10_000;

function ratePolicy(kind: RequestKind, name: RatePolicy['name'], limit: number, windowMs: number): RatePolicy {
  return {
    name,
    limit,
    limitText: String(limit),
    bucketSuffix: `:${kind}`,
    header: `"${name}";q=${limit};w=${Math.ceil(windowMs / 1000)}`,
    stateStart: `"${name}";r=`,
    accountBuckets: new Map(),
  };
}

function accountBucket(policy: RatePolicy, accountId: string): string {
  let bucket = policy.accountBuckets.get(accountId);
  if (bucket === undefined) {
    if (policy.accountBuckets.size >= MAX_BUCKET_NAMES) policy.accountBuckets.clear();
    bucket = `account:${accountId}${policy.bucketSuffix}`;
    policy.accountBuckets.set(accountId, bucket);
  }
  return bucket;
}

export interface RateLimits {
  /**
   * Step 5 of the gate: takes one from the caller's bucket (or, without a valid key, the
   * client address's) and says so in the headers; refuses past the limit. It comes before the
   * refusals that follow, so every response of the API, errors included, carries the headers.
   */
  take(request: FastifyRequest, reply: FastifyReply, kind: RequestKind): void;
  /**
   * The headers of a response that spends nothing (refused before the gate's buckets, or by
   * Node's parser): the client address's bucket as it stands, reads unless `method` is a
   * write's. Nothing is taken from it.
   */
  unspentHeaders(address: string | undefined, method?: string): Record<string, string>;
}

export function rateLimits(limits: Limits, now: () => number): RateLimits {
  const limiter = new RollingWindowLimiter(limits.rateWindowMs, now);
  // Per kind, what does not change from request to request: the bucket's suffix and the policy header.
  const policies: Record<RequestKind, RatePolicy> = {
    read: ratePolicy('read', 'reads', limits.readsPerMinute, limits.rateWindowMs),
    write: ratePolicy('write', 'writes', limits.writesPerMinute, limits.rateWindowMs),
  };

  function take(request: FastifyRequest, reply: FastifyReply, kind: RequestKind): void {
    const policy = policies[kind];
    const decision = limiter.take(
      request.caller ? accountBucket(policy, request.caller.accountId) : `address:${request.ip}${policy.bucketSuffix}`,
      policy.limit,
    );
    reply.header('x-ratelimit-limit', policy.limitText);
    // Each number written out once: under a high limit every count is new text to make.
    const remaining = String(decision.remaining);
    const reset = String(decision.resetSeconds);
    reply.header('x-ratelimit-remaining', remaining);
    reply.header('x-ratelimit-reset', reset);
    reply.header('ratelimit-policy', policy.header);
    reply.header('ratelimit', policy.stateStart + remaining + ';t=' + reset);
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMITED', `Too many ${policy.name}; retry in ${decision.retryAfterSeconds} s`, undefined, {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
  }

  function unspentHeaders(address: string | undefined, method = 'GET'): Record<string, string> {
    const policy = policies[method === 'GET' || method === 'HEAD' ? 'read' : 'write'];
    const decision = limiter.peek(`address:${address}${policy.bucketSuffix}`, policy.limit);
    const remaining = String(decision.remaining);
    const reset = String(decision.resetSeconds);
    return {
      'x-ratelimit-limit': policy.limitText,
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': reset,
      'ratelimit-policy': policy.header,
      ratelimit: policy.stateStart + remaining + ';t=' + reset,
    };
  }

  return { take, unspentHeaders };
}
