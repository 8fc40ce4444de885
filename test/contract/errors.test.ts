import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addFault } from '../../src/admin/faults.js';
import { createAccount } from '../../src/admin/operations.js';
import { errorBodySchema, errorStatus, issuePath, toValidationIssues, type ErrorCode } from '../../src/contract/index.js';
import { buildApp } from '../../src/server/app.js';
import { openStore } from '../../src/server/open-store.js';
import type { Store } from '../../src/server/store/index.js';

// docs/decisions.md: "Errors": the status of each code, and `issues[].path` as a dotted string with
// array indices as numbers.

describe('issuePath', () => {
  it('joins keys with dots, indices as numbers', () => {
    expect(issuePath(['layouts', 'portrait', 'elements', 0, 'x'])).toBe('layouts.portrait.elements.0.x');
    expect(issuePath(['selectedStatistics', 2])).toBe('selectedStatistics.2');
    expect(issuePath(['margins', 'top'])).toBe('margins.top');
    expect(issuePath(['mapResolution'])).toBe('mapResolution');
  });
  it('is the empty string for the body itself', () => {
    expect(issuePath([])).toBe('');
  });
});

describe('the status of each code, in real answers', () => {
  // The other codes are checked where they are provoked: 400 to 415 in test/server/routes/,
  // admission/ and http/, 429 in admission/rate-limit.test.ts, 500 and 503 in
  // test/robustness/service-faults.test.ts. The
  // gateway codes come only from injected faults, so every fault status is checked here.
  let store: Store;
  let app: FastifyInstance;
  let key: string;

  beforeAll(() => {
    store = openStore(':memory:');
    app = buildApp({ store, readsPerMinute: 100_000, writesPerMinute: 100_000 });
    key = createAccount(store, {}).apiKey;
  });
  afterAll(async () => {
    await app.close();
    store.close();
  });

  it.each([
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_ERROR'],
    [502, 'BAD_GATEWAY'],
    [503, 'SERVICE_UNAVAILABLE'],
    [504, 'GATEWAY_TIMEOUT'],
  ] as const)('a %i fault answers %s, the code the contract gives that status', async (status, code) => {
    // One use each: the next row's request meets only its own fault.
    addFault(store, { method: 'GET', path: '/api/v2/queues', kind: 'status', status, latencyMs: null, rate: 1, remaining: 1, accountId: null });
    const answer = await app.inject({ method: 'GET', url: '/api/v2/queues', headers: { apiKey: key } });
    expect(answer.statusCode).toBe(status);
    const body = errorBodySchema.parse(answer.json());
    expect(body.error).toBe(code);
    expect(errorStatus[body.error as ErrorCode]).toBe(status);
  });
});

describe('toValidationIssues', () => {
  const issuesOf = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) throw new Error('expected a rejection');
    return toValidationIssues(result.error);
  };

  it('gives plain { path, message } items with string paths', () => {
    const issues = issuesOf(z.object({ a: z.array(z.object({ b: z.number() })) }), { a: [{ b: 1 }, { b: 'x' }] });
    expect(issues).toEqual([{ path: 'a.1.b', message: expect.any(String) }]);
  });

  it('tells a missing field (required) from a wrongly typed one (names the field only)', () => {
    const schema = z.object({ n: z.number() });
    expect(issuesOf(schema, {})).toEqual([{ path: 'n', message: expect.stringMatching(/required/) }]);
    const [typed] = issuesOf(schema, { n: '1' });
    expect(typed!.path).toBe('n');
    expect(typed!.message).toContain('n');
    expect(typed!.message).not.toMatch(/expected|number|string|required/i);
  });

  it('gives one issue per unknown key at the key path', () => {
    expect(issuesOf(z.strictObject({ m: z.strictObject({ a: z.number() }) }), { m: { a: 1, b: 2, c: 3 } })).toEqual([
      { path: 'm.b', message: expect.any(String) },
      { path: 'm.c', message: expect.any(String) },
    ]);
  });

  it('names an enum field without listing its options', () => {
    const [issue] = issuesOf(z.object({ size: z.enum(['letter', 'legal']) }), { size: 'b5' });
    expect(issue!.path).toBe('size');
    expect(issue!.message).toContain('size');
    expect(issue!.message).not.toMatch(/letter|legal/);
  });
});
