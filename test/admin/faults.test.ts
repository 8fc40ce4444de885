import { describe, expect, it } from 'vitest';
import { faultSpec, parseFaultSpec } from '../../src/admin/faults.js';
import { seededRandom } from '../../src/server/admission/faults.js';

describe('the --fault notation', () => {
  it.each([
    ['GET /api/v2/templates=503x2', { method: 'GET', path: '/api/v2/templates', kind: 'status', status: 503, latencyMs: null, rate: 1, remaining: 2, accountId: null }],
    ['* /api/*=latency:500@0.5', { method: '*', path: '/api/*', kind: 'latency', status: null, latencyMs: 500, rate: 0.5, remaining: null, accountId: null }],
    ['post /api/v2/templates=429x1#acc-1', { method: 'POST', path: '/api/v2/templates', kind: 'status', status: 429, latencyMs: null, rate: 1, remaining: 1, accountId: 'acc-1' }],
    ['GET /api/v2/queue-runs=reset', { method: 'GET', path: '/api/v2/queue-runs', kind: 'reset-connection', status: null, latencyMs: null, rate: 1, remaining: null, accountId: null }],
  ])('%s', (spec, fault) => {
    expect(parseFaultSpec(spec)).toEqual(fault);
    // What `faults list` prints reads back as the same fault.
    expect(parseFaultSpec(faultSpec(parseFaultSpec(spec)))).toEqual(fault);
  });

  it.each(['GET /x=418', 'GET x=503', 'FETCH /x=503', 'GET /x=503@1.5', 'GET /x=503x0', 'GET /x', '/x=503'])('refuses %s', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/--fault/);
  });
});

describe('seededRandom', () => {
  it('repeats its sequence for a seed, and spreads over [0, 1)', () => {
    const take = (seed: number) => Array.from({ length: 1000 }, seededRandom(seed));
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    const values = take(1);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.filter((value) => value < 0.5).length).toBeGreaterThan(400);
  });
});
