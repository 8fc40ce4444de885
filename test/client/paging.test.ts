// serviceApi's listAll: every item across the pages, each once, paced under the rate limit.
// undici's MockAgent answers and fails the test if a page goes unasked; a fake clock records waits.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceApi } from '../../src/client/api.js';
import { ListOverrunError } from '../../src/client/errors.js';
import { ApiClient } from '../../src/client/http.js';
import { allItems } from '../../src/client/paging.js';
import { shapes } from '../../src/client/response-validation.js';
import { fakeService, json } from '../helpers/fake-service.js';
import { runInProcess } from '../helpers/in-process.js';

const ORIGIN = 'http://reportctl.test';
const STAMP = '2026-01-01T00:00:00.000Z';
const queue = (n: number) => ({ id: `q-${n}`, name: `queue ${n}`, steps: [], createdAt: STAMP });
const JSON_HEADERS = { 'content-type': 'application/json' };

let agent: MockAgent | undefined;
afterEach(async () => {
  agent?.assertNoPendingInterceptors();
  await agent?.close();
  agent = undefined;
});

function setup() {
  const mock = new MockAgent({ enableCallHistory: true });
  agent = mock;
  mock.disableNetConnect();
  let now = Date.parse(STAMP);
  const sleeps: number[] = [];
  const client = new ApiClient({
    baseUrl: ORIGIN,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    dispatcher: mock,
  });
  const queries = () => (mock.getCallHistory()?.calls() ?? []).map((call) => Object.fromEntries(new URL(call.fullUrl).searchParams));
  return { api: serviceApi(client), client, service: mock.get(ORIGIN), sleeps, queries };
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

/** Reads a walk to its end; what it yielded, and how it ended. */
async function walk<T>(items: AsyncGenerator<T, unknown>): Promise<{ count: number; error?: unknown }> {
  let count = 0;
  try {
    for await (const _item of items) count++;
    return { count };
  } catch (error) {
    return { count, error };
  }
}

describe('listAll against a hostile or broken service', () => {
  const queues = (from: number, count: number) => Array.from({ length: count }, (_, i) => queue(from + i));
  /** Page `number` of the queues answers `body`. */
  const answerPage = (service: ReturnType<typeof setup>['service'], number: number, body: object) =>
    service.intercept({ path: (path) => path.startsWith('/api/v2/queues?') && new URLSearchParams(path.split('?')[1]).get('page') === String(number) }).reply(200, body, { headers: JSON_HEADERS });
  /** Every page brings 100 new queues and a total 100 larger: without a bound it never ends. */
  const growing = (number: number) => ({ total: 150 + number * 100, page: number, limit: 100, data: queues(number * 100, 100) });

  it('stops after the pages the first total implies when the total keeps growing', async () => {
    const { api, service } = setup();
    for (const number of [1, 2, 3]) answerPage(service, number, growing(number));
    const { count, error } = await walk(api.queues.listAll());
    expect(error).toBeInstanceOf(ListOverrunError);
    expect((error as Error).message).toBe("the service's list /api/v2/queues grew past 300 items while it was read (250 at first, 450 now); reportctl stopped reading it");
    expect(count).toBe(300);
  });

  it('stops at a page it has already read', async () => {
    const { api, service } = setup();
    for (const number of [1, 2]) answerPage(service, number, { total: 1000, page: 1, limit: 100, data: queues(0, 100) });
    const { count, error } = await walk(api.queues.listAll());
    expect((error as Error).message).toBe("the service's list /api/v2/queues sent page 2 again (every item on it already read); reportctl stopped reading it");
    expect(count).toBe(100);
  });

  it('refuses a total past the item cap at the first page', async () => {
    const { api, service } = setup();
    answerPage(service, 1, { total: 1e12, page: 1, limit: 100, data: queues(0, 100) });
    const { count, error } = await walk(api.queues.listAll());
    expect((error as Error).message).toBe("the service's list /api/v2/queues says it holds 1000000000000 items; reportctl stopped reading it");
    expect(count).toBe(0);
  });

  it('stops when the pages together pass the byte cap', async () => {
    const { client, service } = setup();
    const body = (number: number) => ({ total: 500, page: number, limit: 100, data: queues(number * 100, 100) });
    for (const number of [1, 2, 3]) answerPage(service, number, body(number));
    const pageBytes = Buffer.byteLength(JSON.stringify(body(1)));
    // Room for two pages and part of a third.
    const cap = pageBytes * 2 + 10;
    const { count, error } = await walk(allItems(client, '/api/v2/queues', shapes.queuePage, {}, undefined, undefined, { items: 1000, bytes: cap }));
    expect((error as Error).message).toBe(`the service's list /api/v2/queues sent more than ${cap} bytes in 3 pages; reportctl stopped reading it`);
    expect(count).toBe(200);
  });

  it('stops when the items sent pass the item cap, whatever the total said', async () => {
    const { client, service } = setup();
    // A total within the cap, and pages longer than the page size.
    for (const number of [1, 2]) answerPage(service, number, { total: 150, page: number, limit: 100, data: queues(number * 150, 150) });
    const { count, error } = await walk(allItems(client, '/api/v2/queues', shapes.queuePage, {}, undefined, undefined, { items: 200, bytes: 1e9 }));
    expect((error as Error).message).toBe("the service's list /api/v2/queues sent more than 200 items; reportctl stopped reading it");
    expect(count).toBe(200);
  });
});

describe('commands that read a whole list, against a service whose pages never run out', () => {
  const STAMP_TEMPLATE = (n: number) => ({
    id: `tpl-${n}`,
    userId: 'u-1',
    name: `template ${n}`,
    analysisType: 'counting',
    reportType: 'stand_count',
    reportTypeId: 'rt-1',
    reportCategory: 'general',
    selectedStatistics: [],
    createdAt: STAMP,
    updatedAt: STAMP,
  });
  /** 100 new templates on every page and a total that grows with them, as the audit's service did. */
  const endless = () =>
    fakeService((request, response) => {
      const url = new URL(request.url ?? '/', ORIGIN);
      if (url.pathname !== '/api/v2/templates') return json(response, 404, { error: 'NOT_FOUND', message: 'no' });
      const number = Number(url.searchParams.get('page'));
      return json(response, 200, { total: 1e3 + number * 100, page: number, limit: 100, data: Array.from({ length: 100 }, (_, i) => STAMP_TEMPLATE(number * 100 + i)) });
    });

  it('`templates list --all` stops with exit 6 after the pages the first total announced', async () => {
    const service = await endless();
    const result = await runInProcess(['templates', 'list', '--all', '--base-url', service.url, '--api-key', 'k']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain("reportctl: the service's list /api/v2/templates grew past 1100 items while it was read (1100 at first, 2100 now); reportctl stopped reading it");
    expect(service.requests).toHaveLength(11);
  });

  it('`templates pull` stops with exit 6 and writes nothing', async () => {
    const service = await endless();
    const dir = mkdtempSync(join(tmpdir(), 'reportctl-pull-'));
    const result = await runInProcess(['templates', 'pull', dir, '--base-url', service.url, '--api-key', 'k']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain("the service's list /api/v2/templates grew past 1100 items");
    expect(readdirSync(dir)).toEqual([]);
    expect(service.requests).toHaveLength(11);
  });
});
