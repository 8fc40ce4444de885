/**
 * Every limit the service enforces on a request, a response or a connection, declared once:
 * `serve` and the tests give some (LimitOptions), and limitsOf fills in the rest. Each step of
 * the gate (admission/) and each transport piece (http/) builds its state from the one Limits.
 */
export interface Limits {
  /** Reads of one account (or one keyless client address) per window. */
  readsPerMinute: number;
  /** Writes of one account (or one keyless client address) per window. */
  writesPerMinute: number;
  /** The rolling window both rate limits count over (`serve --rate-window-seconds`). */
  rateWindowMs: number;
  /** Requests of one account being responded to at once; more are refused 429. Undefined: no cap (`serve --max-in-flight`). */
  maxInFlightPerAccount: number | undefined;
  /** Bytes of pages all responses in flight may reserve; past it, 503. */
  maxResponseBytes: number;
  /** What one account's responses may reserve of maxResponseBytes; past it, 503. */
  maxAccountResponseBytes: number;
  /** A response its client takes nothing of for this long is dropped with its connection. */
  responseStallMs: number;
  /** A response not taken whole this long after it was handed to its connection is dropped. */
  responseDeadlineMs: number;
  /** Connections open at once; past it, a connection that never presented a valid key makes room, or the new one is refused 503. */
  maxConnections: number;
  /** How long a keep-alive connection may stay idle between requests. */
  keepAliveTimeoutMs: number;
  /** The whole request must arrive within this... */
  requestTimeoutMs: number;
  /** ...and its request line and headers within this. */
  headersTimeoutMs: number;
}

/** What a caller of the service gives: the rate limits always, any other limit to change its default. */
export type LimitOptions = Pick<Limits, 'readsPerMinute' | 'writesPerMinute'> & { [Name in keyof Limits]?: Limits[Name] | undefined };

/**
 * The bytes of list pages all accounts' responses in flight may reserve at once: about seven
 * of the largest pages (26 MiB). With the service's own needs, serve stays under 512 MB
 * however many accounts ask (bench/memory-amplification.mjs).
 */
const MAX_RESPONSE_BYTES = 192 * 1024 * 1024;

export const DEFAULT_LIMITS: Omit<Limits, 'readsPerMinute' | 'writesPerMinute'> = {
  rateWindowMs: 60_000,
  // Memory is bounded by bytes, and a client within the rate limits may send many requests at once.
  maxInFlightPerAccount: undefined,
  maxResponseBytes: MAX_RESPONSE_BYTES,
  // A quarter: room for one of an account's largest pages (about 25 MiB) and most of a second.
  // Accounts that read slowly cannot take the whole budget from the others: with two of them
  // at their share, half is left.
  maxAccountResponseBytes: MAX_RESPONSE_BYTES / 4,
  // A client that stops reading reserves its bytes (and its account's slot) no longer.
  responseStallMs: 10_000,
  // The largest page (26 MiB) takes 30 s at under 1 MB/s, far below any loopback or local
  // network, and a reader that slow reserves its bytes no longer.
  responseDeadlineMs: 30_000,
  // Far more than a dashboard, the CLI and a CI job open together, and far fewer than the
  // descriptors a process may have (often 1,024 by default).
  maxConnections: 512,
  // Fastify's default is 72 s; idle connections should not pile up. Not Node's 5 s: a client
  // told 5 s (Keep-Alive: timeout=5) keeps its idle connection about 4 s, and on a busy machine
  // its next request then often meets the server closing it ("other side closed").
  keepAliveTimeoutMs: 30_000,
  // Slow clients cannot hold a connection.
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
};

/** The limits `options` gives, each one it leaves out at its default; nothing else of `options`. */
export function limitsOf(options: LimitOptions): Limits {
  const limits = { ...DEFAULT_LIMITS, readsPerMinute: options.readsPerMinute, writesPerMinute: options.writesPerMinute };
  for (const name of Object.keys(DEFAULT_LIMITS) as Array<keyof typeof DEFAULT_LIMITS>) {
    const given = options[name];
    if (given !== undefined) (limits as Record<string, unknown>)[name] = given;
  }
  // An account's share is never more than the whole.
  if (options.maxAccountResponseBytes === undefined) limits.maxAccountResponseBytes = Math.min(limits.maxAccountResponseBytes, limits.maxResponseBytes);
  limits.headersTimeoutMs = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return limits;
}
