// ApiClient on its own: undici's MockAgent answers (faults on demand), a fake clock records
// every deliberate wait, so nothing here really sleeps.
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiResponseError, NetworkError, RateLimitedError, ResponseTooLargeError, UnexpectedResponseError } from '../../src/client/errors.js';
import { ApiClient, type ApiClientOptions, type KeyHeader } from '../../src/client/http.js';
import { retryAfterMs } from '../../src/client/rate-limit.js';
import { shapes } from '../../src/client/response-validation.js';

const ORIGIN = 'http://reportctl.test';
const KEY = `rctl_${'Zq9'.repeat(14)}x`;
const QUEUES = { total: 0, page: 1, limit: 20, data: [] };
const JSON_HEADERS = { 'content-type': 'application/json' };

interface FakeClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Every wait the client asked for, in order. */
  sleeps: number[];
}

function fakeClock(start = Date.parse('2025-06-02T12:00:00.000Z')): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}

let agent: MockAgent;
let agentInUse = false;
afterEach(async () => {
  if (!agentInUse) return;
  agentInUse = false;
  // Like a stub registry that fails when a stub goes unused.
  agent.assertNoPendingInterceptors();
  await agent.close();
});

function setup(options: Partial<ApiClientOptions> = {}): { client: ApiClient; clock: FakeClock; service: ReturnType<MockAgent['get']> } {
  agent = new MockAgent({ enableCallHistory: true });
  agentInUse = true;
  agent.disableNetConnect();
  const clock = fakeClock();
  const client = new ApiClient({ baseUrl: ORIGIN, apiKey: KEY, sleep: clock.sleep, now: clock.now, dispatcher: agent, ...options });
  return { client, clock, service: agent.get(ORIGIN) };
}

function calls(): Array<{ method: string; path: string; headers: Record<string, string>; fullUrl: string }> {
  return (agent.getCallHistory()?.calls() ?? []).map((call) => ({
    method: call.method,
    path: call.path,
    fullUrl: call.fullUrl,
    headers: Object.fromEntries(Object.entries(call.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)])),
  }));
}

function networkFault(code: string): Error {
  return Object.assign(new Error(`connect ${code}`), { code });
}

/** Back-off ceilings: 250 ms doubling, capped at 8 s. */
const CEILINGS = [250, 500, 1000, 2000, 4000, 8000, 8000];

describe('back-off on transient failures', () => {
  it.each([
    [0, CEILINGS.map((ceiling) => ceiling / 2)],
    [1, CEILINGS],
  ])('grows exponentially, capped at 8 s: with random() = %d the waits are %j ms', async (random, expected) => {
    const { client, clock, service } = setup({ maxTransientRetries: 7, random: () => random });
    service.intercept({ path: '/api/v2/queues' }).reply(503, { error: 'UNAVAILABLE', message: 'later' }, { headers: JSON_HEADERS }).times(8);
    await expect(client.request('GET', '/api/v2/queues')).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(clock.sleeps).toEqual(expected);
    expect(calls()).toHaveLength(8);
  });

  it('real jitter: every wait between half the ceiling and the ceiling, and not all the same', async () => {
    const { service } = setup();
    service.intercept({ path: '/api/v2/queues' }).reply(502, 'Bad Gateway').times(80);
    const runs: number[][] = [];
    for (let run = 0; run < 10; run++) {
      const clock = fakeClock();
      const client = new ApiClient({ baseUrl: ORIGIN, apiKey: KEY, sleep: clock.sleep, now: clock.now, dispatcher: agent, maxTransientRetries: 7 });
      await expect(client.request('GET', '/api/v2/queues')).rejects.toBeInstanceOf(ApiResponseError);
      clock.sleeps.forEach((ms, attempt) => {
        expect(ms).toBeGreaterThanOrEqual(CEILINGS[attempt]! / 2);
        expect(ms).toBeLessThanOrEqual(CEILINGS[attempt]!);
      });
      runs.push(clock.sleeps);
    }
    expect(new Set(runs.map((run) => run.join(','))).size).toBeGreaterThan(1);
  });

  it('502/503/504 and broken connections are retried for a GET (3 times by default), then it succeeds', async () => {
    const { client, clock, service } = setup({ random: () => 0.5 });
    const path = '/api/v2/queues';
    service.intercept({ path }).reply(502, 'Bad Gateway');
    service.intercept({ path }).replyWithError(networkFault('ECONNRESET'));
    service.intercept({ path }).reply(504, 'Gateway Timeout');
    service.intercept({ path }).reply(200, QUEUES, { headers: JSON_HEADERS });
    const result = await client.request('GET', path);
    expect(result.body).toEqual(QUEUES);
    expect(clock.sleeps).toEqual([188, 375, 750]);
  });

  it('408 REQUEST_TIMEOUT (the request did not arrive whole) is sent again, a POST too', async () => {
    const { client, clock, service } = setup({ random: () => 0.5 });
    const timedOut = { error: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time; send it again' };
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(408, timedOut, { headers: JSON_HEADERS }).times(2);
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(201, { id: 't-1' }, { headers: JSON_HEADERS });
    expect((await client.request('POST', '/api/v2/templates', { body: { name: 'x' } })).body).toEqual({ id: 't-1' });
    expect(clock.sleeps).toEqual([188, 375]);
  });

  it('a GET gives up after 1 + 3 attempts with a NetworkError', async () => {
    const { client, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).replyWithError(networkFault('ECONNREFUSED')).times(4);
    const error = await client.request('GET', '/api/v2/queues').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(`cannot reach ${ORIGIN}: connection refused (ECONNREFUSED)`);
    expect(calls()).toHaveLength(4);
  });

  it('an unknown host is not worth another try', async () => {
    const { client, clock, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).replyWithError(networkFault('ENOTFOUND'));
    await expect(client.request('GET', '/api/v2/queues')).rejects.toMatchObject({ code: 'ENOTFOUND', timedOut: false });
    expect(clock.sleeps).toEqual([]);
  });

  it('POST, PUT and DELETE are never repeated on 5xx or a broken connection', async () => {
    const { client, clock, service } = setup();
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(503, { error: 'UNAVAILABLE', message: 'later' }, { headers: JSON_HEADERS });
    service.intercept({ path: '/api/v2/templates/t-1', method: 'PUT' }).replyWithError(networkFault('ECONNRESET'));
    service.intercept({ path: '/api/v2/templates/t-1', method: 'DELETE' }).reply(502, 'Bad Gateway');
    await expect(client.request('POST', '/api/v2/templates', { body: { name: 'x' } })).rejects.toMatchObject({ status: 503 });
    await expect(client.request('PUT', '/api/v2/templates/t-1', { body: { name: 'x' } })).rejects.toBeInstanceOf(NetworkError);
    await expect(client.request('DELETE', '/api/v2/templates/t-1')).rejects.toMatchObject({ status: 502 });
    expect(calls().map((call) => call.method)).toEqual(['POST', 'PUT', 'DELETE']);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('429', () => {
  const limited = (retryAfter: string) =>
    [429, { error: 'RATE_LIMITED', message: 'Too many writes' }, { headers: { ...JSON_HEADERS, 'retry-after': retryAfter } }] as const;

  it('a POST is repeated after Retry-After: a 429 was not processed', async () => {
    const { client, clock, service } = setup();
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(...limited('2'));
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(201, { id: 't-1' }, { headers: JSON_HEADERS });
    const result = await client.request('POST', '/api/v2/templates', { body: { name: 'x' } });
    expect(result.status).toBe(201);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('a storm is bounded: 1 + 5 attempts, then RateLimitedError', async () => {
    const { client, clock, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).reply(...limited('1')).times(6);
    const error = await client.request('GET', '/api/v2/queues').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).message).toMatch(/after 6 attempts/);
    expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  it('a Retry-After longer than the client accepts fails at once', async () => {
    const { client, clock, service } = setup({ maxRetryAfterMs: 60_000 });
    service.intercept({ path: '/api/v2/queues' }).reply(...limited('3600'));
    await expect(client.request('GET', '/api/v2/queues')).rejects.toMatchObject({ status: 429, retryAfterSeconds: 3600 });
    expect(clock.sleeps).toEqual([]);
  });

  it('Retry-After as an HTTP date is waited out against the clock', async () => {
    const { client, clock, service } = setup();
    const at = new Date(clock.now() + 7000).toUTCString();
    service.intercept({ path: '/api/v2/queues' }).reply(...limited(at));
    service.intercept({ path: '/api/v2/queues' }).reply(200, QUEUES, { headers: JSON_HEADERS });
    await client.request('GET', '/api/v2/queues');
    expect(clock.sleeps).toEqual([7000]);
  });

  it('retryAfterMs: seconds or a date, never less than one second', () => {
    const now = Date.parse('2025-06-02T12:00:00.000Z');
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs('0', now)).toBe(1000);
    expect(retryAfterMs(undefined, now)).toBe(1000);
    expect(retryAfterMs('soon', now)).toBe(1000);
    expect(retryAfterMs('Mon, 02 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 02 Jun 2025 11:59:00 GMT', now)).toBe(1000);
  });
});

describe('pacing by X-RateLimit-Remaining', () => {
  const bucketHeaders = (policy: 'reads' | 'writes', remaining: number, reset: number) => ({
    ...JSON_HEADERS,
    'x-ratelimit-limit': policy === 'reads' ? '120' : '30',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(reset),
    'ratelimit-policy': `"${policy}";q=${policy === 'reads' ? 120 : 30};w=60`,
    ratelimit: `"${policy}";r=${remaining};t=${reset}`,
  });

  it('after Remaining: 0 and Reset: 7, the next read first waits 7 s, then is sent', async () => {
    const { client, clock, service } = setup();
    const sentAt: number[] = [];
    const answer = (remaining: number, reset: number) => () => {
      sentAt.push(clock.now());
      return { statusCode: 200, data: QUEUES, responseOptions: { headers: bucketHeaders('reads', remaining, reset) } };
    };
    service.intercept({ path: '/api/v2/queues' }).reply(answer(0, 7));
    service.intercept({ path: '/api/v2/queues' }).reply(answer(119, 60));
    service.intercept({ path: '/api/v2/queues' }).reply(answer(118, 60));
    const start = clock.now();
    for (let i = 0; i < 3; i++) await client.request('GET', '/api/v2/queues');
    expect(clock.sleeps).toEqual([7000]);
    expect(sentAt.map((at) => at - start)).toEqual([0, 7000, 7000]);
  });

  it('validate-formula, though it only reads, is paced in the writes’ bucket, as the service counts it', async () => {
    const { client, clock, service } = setup();
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(201, { id: 't-1' }, { headers: bucketHeaders('writes', 0, 3) });
    service
      .intercept({ path: '/api/v2/templates/validate-formula', method: 'POST' })
      .reply(200, { valid: true, usesL: false }, { headers: bucketHeaders('writes', 29, 60) });
    await client.request('POST', '/api/v2/templates', { body: { name: 'x' } });
    await client.request('POST', '/api/v2/templates/validate-formula', { body: { formula: 'NIR' } });
    expect(clock.sleeps).toEqual([3000]);
  });

  it('reads and writes are paced separately, by the bucket RateLimit-Policy names', async () => {
    const { client, clock, service } = setup();
    // Reads run out: a write still goes at once, a read-like POST waits.
    service.intercept({ path: '/api/v2/queues' }).reply(200, QUEUES, { headers: bucketHeaders('reads', 0, 7) });
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(201, { id: 't-1' }, { headers: bucketHeaders('writes', 0, 3) });
    service
      .intercept({ path: '/api/v0/analyses', method: 'POST' })
      .reply(200, { data: [], total: 0, page: 1, limit: 100 }, { headers: bucketHeaders('reads', 50, 60) });
    // Writes ran out 3 s ago from their response, and 7 s have passed since: no wait now.
    service.intercept({ path: '/api/v2/templates/t-1', method: 'PUT' }).reply(200, { id: 't-1' }, { headers: bucketHeaders('writes', 0, 20) });
    // Reads have 50 left: a GET goes at once even though writes are empty.
    service.intercept({ path: '/api/v2/queues' }).reply(200, QUEUES, { headers: bucketHeaders('reads', 49, 60) });
    // And the next write waits for its own bucket: 20 s.
    service.intercept({ path: '/api/v2/templates/t-1', method: 'DELETE' }).reply(204, '', { headers: bucketHeaders('writes', 29, 60) });

    await client.request('GET', '/api/v2/queues');
    await client.request('POST', '/api/v2/templates', { body: { name: 'x' } });
    expect(clock.sleeps).toEqual([]);
    await client.request('POST', '/api/v0/analyses', { body: {} });
    expect(clock.sleeps).toEqual([7000]);
    await client.request('PUT', '/api/v2/templates/t-1', { body: { name: 'y' } });
    expect(clock.sleeps).toEqual([7000]);
    await client.request('GET', '/api/v2/queues');
    expect(clock.sleeps).toEqual([7000]);
    await client.request('DELETE', '/api/v2/templates/t-1');
    expect(clock.sleeps).toEqual([7000, 20_000]);
  });

  it('no wait while Remaining is above zero', async () => {
    const { client, clock, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).reply(200, QUEUES, { headers: bucketHeaders('reads', 1, 59) }).times(3);
    for (let i = 0; i < 3; i++) await client.request('GET', '/api/v2/queues');
    expect(clock.sleeps).toEqual([]);
  });
});

describe('the key', () => {
  const cases: Array<[KeyHeader, string, string]> = [
    ['apiKey', 'apikey', KEY],
    ['X-API-Key', 'x-api-key', KEY],
    ['Authorization', 'authorization', `Bearer ${KEY}`],
  ];

  it.each(cases)('%s: sent in that header only, never in the URL, never in a trace line', async (keyHeader, wireName, wireValue) => {
    const trace: string[] = [];
    const { client, service } = setup({ keyHeader, trace: (line) => trace.push(line), random: () => 0 });
    service.intercept({ path: '/api/v2/queues', query: { limit: 5 } }).reply(503, 'Service Unavailable');
    service.intercept({ path: '/api/v2/queues', query: { limit: 5 } }).reply(200, QUEUES, { headers: JSON_HEADERS });
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(401, { error: 'API_KEY_INVALID', message: 'The API key is not valid' }, { headers: JSON_HEADERS });
    await client.request('GET', '/api/v2/queues', { query: { limit: 5 } });
    const rejected = await client.request('POST', '/api/v2/templates', { body: { name: 'x' } }).catch((caught: unknown) => caught);
    expect(rejected).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });

    for (const call of calls()) {
      expect(call.headers[wireName]).toBe(wireValue);
      for (const other of cases.map(([, name]) => name).filter((name) => name !== wireName)) expect(call.headers[other]).toBeUndefined();
      expect(call.fullUrl).not.toContain(KEY);
    }
    const sentKeyLines = trace.filter((line) => line.toLowerCase().startsWith(`> ${wireName}:`));
    expect(sentKeyLines).toHaveLength(3);
    for (const line of sentKeyLines) expect(line).toBe(keyHeader === 'Authorization' ? `> ${keyHeader}: Bearer <redacted>` : `> ${keyHeader}: <redacted>`);
    const everything = [...trace, (rejected as Error).message].join('\n');
    expect(everything).not.toContain(KEY);
    // Not even a recognisable piece of it.
    expect(everything).not.toContain(KEY.slice(5, 17));
  });

  it('no key configured: no key header at all', async () => {
    const { client, service } = setup({ apiKey: undefined });
    service.intercept({ path: '/api/v2/queues' }).reply(401, { error: 'API_KEY_MISSING', message: 'Send an API key' }, { headers: JSON_HEADERS });
    await expect(client.request('GET', '/api/v2/queues')).rejects.toMatchObject({ status: 401, code: 'API_KEY_MISSING' });
    expect(Object.keys(calls()[0]!.headers).filter((name) => ['apikey', 'x-api-key', 'authorization'].includes(name))).toEqual([]);
  });
});

describe('answers that are not the contract', () => {
  it('a 2xx that is not JSON is an UnexpectedResponseError', async () => {
    const { client, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).reply(200, '{"total": 1, "data": [', { headers: JSON_HEADERS });
    await expect(client.request('GET', '/api/v2/queues')).rejects.toThrow(new UnexpectedResponseError(`${ORIGIN}/api/v2/queues`, 'the body is not JSON'));
  });

  it("a proxy's HTML error page becomes one short line", async () => {
    const { client, service } = setup({ maxTransientRetries: 0 });
    const page = '<!DOCTYPE html>\n<html>\n<head>\n  <title>503 Service\n Temporarily Unavailable</title>\n</head>\n<body><h1>Oops</h1></body></html>';
    service.intercept({ path: '/api/v2/queues' }).reply(503, page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const error = (await client.request('GET', '/api/v2/queues').catch((caught: unknown) => caught)) as ApiResponseError;
    expect(error.status).toBe(503);
    expect(error.code).toBe('HTTP_503');
    expect(error.message).toBe("Service Temporarily Unavailable: an HTML page, not the service's JSON (a proxy or gateway in the way?)");
  });

  it('plain text error bodies are kept, on one line, without control characters', async () => {
    const { client, service } = setup({ maxTransientRetries: 0 });
    service.intercept({ path: '/api/v2/queues' }).reply(500, 'upstream\nconnect\u001b[2J error\n', { headers: { 'content-type': 'text/plain' } });
    await expect(client.request('GET', '/api/v2/queues')).rejects.toMatchObject({ status: 500, code: 'HTTP_500', message: 'upstream connect [2J error' });
  });

  it('a body the generated check refuses but the contract accepts is returned as the service sent it', async () => {
    const { client, service } = setup();
    // A status the service may add one day: the check knows today's values only, zod takes any string.
    const run = {
      status: 'paused', id: 'run-1', name: 'night run', queueId: 'queue-1', estimatedHa: 1.5, steps: [],
      createdAt: '2025-06-02T12:00:00.000Z', startedAt: null, finishedAt: null, extra: { kept: true },
    };
    const page = { data: [run], total: 1, page: 1, limit: 20 };
    expect(shapes.queueRunPage.check(page)).toBe(false);
    service.intercept({ path: '/api/v2/queue-runs' }).reply(200, page, { headers: JSON_HEADERS });
    const read = await client.get('/api/v2/queue-runs', shapes.queueRunPage);
    expect(JSON.stringify(read)).toBe(JSON.stringify(page));
  });

  it('a body the contract refuses is an UnexpectedResponseError naming the field, as zod words it', async () => {
    const { client, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).reply(200, { ...QUEUES, total: -1 }, { headers: JSON_HEADERS });
    await expect(client.get('/api/v2/queues', shapes.queuePage)).rejects.toThrow(
      new UnexpectedResponseError(`${ORIGIN}/api/v2/queues`, 'total: Too small: expected number to be >=0'),
    );
  });

  it("an error body is read for the service's code, message and issues; one that is not the contract's keeps the status", async () => {
    const { client, service } = setup();
    const issues = [{ path: 'mapResolution', message: 'Invalid mapResolution' }];
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(400, { error: 'VALIDATION_FAILED', message: 'invalid body', issues }, { headers: JSON_HEADERS });
    await expect(client.send('POST', '/api/v2/templates', {}, shapes.template)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'invalid body', issues });
    service.intercept({ path: '/api/v2/templates', method: 'POST' }).reply(400, { error: 'VALIDATION_FAILED', message: 'invalid body', issues: 'many' }, { headers: JSON_HEADERS });
    await expect(client.send('POST', '/api/v2/templates', {}, shapes.template)).rejects.toMatchObject({ status: 400, code: 'HTTP_400', message: 'HTTP 400', issues: [] });
  });
});

// Issue 28, item 5: answers were read whole, however long (6.37 GB against an endless body).
describe('the size of an answer', () => {
  const page = JSON.stringify(QUEUES);
  it('an answer up to the limit is read; one byte more is cut off, and not retried', async () => {
    const exact = setup({ maxResponseBytes: Buffer.byteLength(page) });
    exact.service.intercept({ path: '/api/v2/queues' }).reply(200, page, { headers: JSON_HEADERS });
    expect(await exact.client.get('/api/v2/queues', shapes.queuePage)).toEqual(QUEUES);
    await agent.close();

    const over = setup({ maxResponseBytes: Buffer.byteLength(page) - 1 });
    over.service.intercept({ path: '/api/v2/queues' }).reply(200, page, { headers: JSON_HEADERS });
    const error = await over.client.get('/api/v2/queues', shapes.queuePage).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(`the answer from ${ORIGIN}/api/v2/queues is larger than ${Buffer.byteLength(page) - 1} bytes; not read further`);
    expect(calls()).toHaveLength(1);
  });

  it('the limit is 64 MiB unless the caller sets another', async () => {
    const { client, service } = setup();
    service.intercept({ path: '/api/v2/queues' }).reply(200, page, { headers: { ...JSON_HEADERS, 'content-length': String(64 * 1024 * 1024 + 1) } });
    await expect(client.get('/api/v2/queues', shapes.queuePage)).rejects.toThrow('is larger than 64 MiB; not read further');
  });
});
