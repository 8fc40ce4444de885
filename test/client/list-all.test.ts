// serviceApi's listAll: every item across the pages, each once, paced under the rate limit.
// undici's MockAgent answers and fails the test if a page goes unasked; a fake clock records waits.
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceApi } from '../../src/client/api.js';
import { ApiClient } from '../../src/client/http.js';

const ORIGIN = 'http://reportctl.test';
const STAMP = '2026-01-01T00:00:00.000Z';
const queue = (n: number) => ({ id: `q-${n}`, name: `queue ${n}`, steps: [], createdAt: STAMP });
const JSON_HEADERS = { 'content-type': 'application/json' };

let agent: MockAgent;
afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

function setup() {
  agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  let now = Date.parse(STAMP);
  const sleeps: number[] = [];
  const client = new ApiClient({
    baseUrl: ORIGIN,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    dispatcher: agent,
  });
  const queries = () => (agent.getCallHistory()?.calls() ?? []).map((call) => Object.fromEntries(new URL(call.fullUrl).searchParams));
  return { api: serviceApi(client), service: agent.get(ORIGIN), sleeps, queries };
}

describe('listAll', () => {
  it('walks every page with the largest page size, keeps the query, and yields an item that shifted pages once', async () => {
    const { api, service, queries } = setup();
    const page = (number: number, data: unknown[]) => ({ total: 201, page: number, limit: 100, data });
    const first = Array.from({ length: 100 }, (_, i) => queue(i));
    // A new queue was created between the reads: the last of page 1 is now the first of page 2.
    const second = [queue(99), ...Array.from({ length: 99 }, (_, i) => queue(100 + i))];
    service.intercept({ path: (path) => path.startsWith('/api/v2/queues?') && path.includes('page=1') }).reply(200, page(1, first), { headers: JSON_HEADERS });
    service.intercept({ path: (path) => path.startsWith('/api/v2/queues?') && path.includes('page=2') }).reply(200, page(2, second), { headers: JSON_HEADERS });
    service
      .intercept({ path: (path) => path.startsWith('/api/v2/queues?') && path.includes('page=3') })
      .reply(200, page(3, [queue(199), queue(200)]), { headers: JSON_HEADERS });

    const ids: string[] = [];
    const walk = api.queues.listAll({ name: 'north' });
    let step = await walk.next();
    for (; !step.done; step = await walk.next()) ids.push(step.value.id);
    expect(step.value).toEqual({ total: 201 });
    expect(ids).toEqual(Array.from({ length: 201 }, (_, i) => `q-${i}`));
    expect(queries()).toEqual([1, 2, 3].map((number) => ({ name: 'north', page: String(number), limit: '100' })));
  });

  it('waits for the reads bucket to refill before the next page, as the service says', async () => {
    const { api, service, sleeps } = setup();
    const headers = (remaining: number, reset: number) => ({
      ...JSON_HEADERS,
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(reset),
      'ratelimit-policy': '"reads";q=120;w=60',
    });
    service
      .intercept({ path: (path) => path.includes('page=1') })
      .reply(200, { total: 101, page: 1, limit: 100, data: Array.from({ length: 100 }, (_, i) => queue(i)) }, { headers: headers(0, 9) });
    service.intercept({ path: (path) => path.includes('page=2') }).reply(200, { total: 101, page: 2, limit: 100, data: [queue(100)] }, { headers: headers(119, 60) });
    let count = 0;
    for await (const _queue of api.queues.listAll()) count++;
    expect(count).toBe(101);
    expect(sleeps).toEqual([9000]);
  });

  it('an empty list is one request and nothing yielded', async () => {
    const { api, service } = setup();
    service.intercept({ path: (path) => path.startsWith('/api/v2/templates/presets?') }).reply(200, { total: 0, page: 1, limit: 100, data: [] }, { headers: JSON_HEADERS });
    const presets: unknown[] = [];
    for await (const preset of api.presets.listAll()) presets.push(preset);
    expect(presets).toEqual([]);
  });
});
