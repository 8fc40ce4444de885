import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorCodes, errorStatus, issuePath, toValidationIssues } from '../../src/contract/index.js';

// README, decisions: "Errors": the status of each code, and `issues[].path` as a dotted string with
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

describe('errorStatus', () => {
  const table: Record<string, number> = {
    VALIDATION_FAILED: 400,
    API_KEY_MISSING: 401,
    API_KEY_INVALID: 401,
    PLAN_LIMIT_EXCEEDED: 403,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
    // Injected faults only (serve --fault).
    BAD_GATEWAY: 502,
    GATEWAY_TIMEOUT: 504,
  };

  it('knows exactly the codes of the table', () => {
    expect([...errorCodes].sort()).toEqual(Object.keys(table).sort());
  });

  it.each(Object.entries(table))('%s is %i', (code, status) => {
    expect(errorStatus[code as keyof typeof errorStatus]).toBe(status);
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
