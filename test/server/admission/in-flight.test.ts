import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/listen.js';
import { api } from '../../helpers/server.js';
import { expectError } from '../../helpers/http.js';
import { attackedServerForSuite, bigPages, eventually, serverOptions, unreadRequest } from '../../helpers/slow-clients.js';
import { InFlightLimiter } from '../../../src/server/admission/in-flight.js';

/**
 * Step 9 of the gate (src/server/admission/in-flight.ts): an account's requests in flight,
 * counted when serve caps them, and the bytes its responses reserve.
 */

/** What the limiter uses of a response: its one 'close' event. */
const response = () => new EventEmitter() as unknown as ServerResponse;

describe('InFlightLimiter', () => {
  it('counts an account up to its limit, and frees a slot when an answer closes', () => {
    const limiter = new InFlightLimiter(2);
    const [first, second, third] = [response(), response(), response()];
    expect(limiter.enter('a', first)).toBe(true);
    expect(limiter.enter('a', second)).toBe(true);
    expect(limiter.enter('a', third)).toBe(false);
    // Another account is not held up.
    expect(limiter.enter('b', response())).toBe(true);
    first.emit('close');
    expect(limiter.inFlight('a')).toBe(1);
    expect(limiter.enter('a', third)).toBe(true);
    second.emit('close');
    third.emit('close');
    expect(limiter.inFlight('a')).toBe(0);
  });

  it('keeps idle accounts at zero, but not without bound', () => {
    const limiter = new InFlightLimiter(4);
    for (let i = 0; i <= 10_000; i++) {
      const answer = response();
      limiter.enter(`account ${i}`, answer);
      answer.emit('close');
    }
    expect(limiter.accountsCounted).toBeLessThanOrEqual(10_000);
    // Busy accounts are never dropped.
    const busy = response();
    limiter.enter('busy', busy);
    for (let i = 0; i <= 10_000; i++) limiter.enter(`other ${i}`, response());
    expect(limiter.inFlight('busy')).toBe(1);
  });
});

describe('item 2: one account cannot make the server hold gigabytes', () => {
  let server: RunningServer;
  attackedServerForSuite((attacked) => ({ server } = attacked));

  it('with serve asked for a cap of 4 requests in flight per account, the next is 429 RATE_LIMITED with Retry-After; other accounts are served', async () => {
    // Four pages read at once from the database (none cached yet) reserve 51 MiB: the account's
    // share is the whole budget here, so none of them is refused for memory instead.
    const capped = await startServer({ ...serverOptions(), maxInFlightPerAccount: 4, maxAccountResponseBytes: 192 * 1024 * 1024 });
    const account = bigPages(capped);
    const another = capped.store.accounts.create();
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(await unreadRequest(capped.url, '/api/v2/templates?limit=100', account.apiKey));
      const refused = await eventually(
        () => api(capped, 'GET', '/api/v2/templates/presets?limit=1', { key: account.apiKey }),
        (answer) => answer.status === 429,
      );
      expect(expectError(refused, 429, 'RATE_LIMITED').message).toContain('in flight');
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('x-ratelimit-limit')).not.toBeNull();
      // Another account is not held up by it.
      expect((await api(capped, 'GET', '/api/v2/templates', { key: another.apiKey })).status).toBe(200);
      for (const socket of held.splice(0)) socket.destroy();
      // Once those connections are gone, the account is served again.
      const served = await eventually(
        () => api(capped, 'GET', '/api/v2/templates/presets?limit=1', { key: account.apiKey }),
        (answer) => answer.status === 200,
      );
      expect(served.status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      await capped.close();
    }
  });

  it('by default, 8 requests of one account in flight at once are all answered: no 429 within the rate limits', async () => {
    const account = server.store.accounts.create();
    // Each request waits 2 s before its handler, so all 8 are in flight together.
    server.store.faults.add({ method: 'GET', path: '/api/v2/queues', kind: 'latency', status: null, latencyMs: 2000, rate: 1, remaining: null, accountId: account.accountId });
    const answers = await Promise.all(Array.from({ length: 8 }, () => api(server, 'GET', '/api/v2/queues', { key: account.apiKey })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 8 }, () => 200));
  });

  it('past the bytes all answers in flight may hold, a page is refused 503 with Retry-After instead of read; small answers still go out', { timeout: 120_000 }, async () => {
    // Room for one page of about 12 MiB, not two.
    const bounded = await startServer({ ...serverOptions(), maxResponseBytes: 20 * 1024 * 1024 });
    const held: Socket[] = [];
    try {
      const first = bigPages(bounded);
      const second = bigPages(bounded);
      held.push(await unreadRequest(bounded.url, '/api/v2/templates?limit=100', first.apiKey));
      // Another account's page does not fit beside the one held by the client that does not read.
      const refused = await eventually(
        () => api(bounded, 'GET', '/api/v2/templates?limit=100', { key: second.apiKey }),
        (answer) => answer.status === 503,
      );
      expect(expectError(refused, 503, 'SERVICE_UNAVAILABLE').message).toContain('responses in flight');
      expect(refused.headers.get('retry-after')).toBe('1');
      // What fits is answered: a page of one template.
      const small = await api(bounded, 'GET', '/api/v2/templates?limit=1', { key: second.apiKey });
      expect(small.status).toBe(200);
      expect((small.body as { data: unknown[] }).data).toHaveLength(1);
      // Once the held answer's connection is gone, its bytes are free for the next page.
      held.splice(0).forEach((socket) => socket.destroy());
      const served = await eventually(
        () => api(bounded, 'GET', '/api/v2/templates?limit=100', { key: second.apiKey }),
        (answer) => answer.status === 200,
      );
      expect((served.body as { data: unknown[] }).data).toHaveLength(50);
    } finally {
      for (const socket of held) socket.destroy();
      await bounded.close();
    }
  });

  it('two accounts reading slowly on 4 connections each hold no more than their share: a third account still gets its pages', { timeout: 120_000 }, async () => {
    // Room for three pages of about 12 MiB; one account's share is one. The stall limit is out of
    // the way, as for readers that take a little now and then.
    const shared = await startServer({ ...serverOptions(), maxResponseBytes: 40 * 1024 * 1024, maxAccountResponseBytes: 20 * 1024 * 1024, responseStallMs: 120_000 });
    const held: Socket[] = [];
    try {
      const [slow, slower, third] = [bigPages(shared), bigPages(shared), bigPages(shared)];
      for (const account of [slow, slower]) {
        for (let i = 0; i < 4; i++) held.push(await unreadRequest(shared.url, '/api/v2/templates?limit=100', account.apiKey));
      }
      // A slow account's next page is past its share...
      const refused = await eventually(
        () => api(shared, 'GET', '/api/v2/templates?limit=100', { key: slow.apiKey }),
        (answer) => answer.status === 503,
      );
      expect(expectError(refused, 503, 'SERVICE_UNAVAILABLE').message).toContain('one account may');
      expect(refused.headers.get('retry-after')).toBe('1');
      // ...and the third account's page fits beside theirs, each time it asks.
      for (let i = 0; i < 3; i++) {
        const page = await api(shared, 'GET', '/api/v2/templates?limit=100', { key: third.apiKey });
        expect(page.status).toBe(200);
        expect((page.body as { data: unknown[] }).data).toHaveLength(50);
      }
    } finally {
      for (const socket of held) socket.destroy();
      await shared.close();
    }
  });
});
