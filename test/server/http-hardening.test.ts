import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/listen.js';
import type { IssuedKey } from '../../src/server/store/index.js';
import { validateTemplateBody } from '../../src/contract/index.js';
import { api, tempDir } from '../helpers/server.js';
import { createTemplate, expectError, expectIssues, minimalBody, readCatalogs, type CatalogsOverHttp } from '../helpers/http.js';
import { rawRequest } from '../helpers/raw-http.js';

/**
 * The attacks of issue 17 that the service must withstand (items 2, 7, 8 and 9), and of issue
 * 28 item 2 (answers held across accounts), each performed against a real server on a free
 * port over a real SQLite file.
 */

let server: RunningServer;
let accessLog: string[];
let owner: IssuedKey;
let other: IssuedKey;
let catalogs: CatalogsOverHttp;

const serverOptions = () => ({
  host: '127.0.0.1',
  port: 0,
  dbPath: join(tempDir(), 'service.db'),
  demo: false,
  readsPerMinute: 100_000,
  writesPerMinute: 100_000,
});

beforeAll(async () => {
  accessLog = [];
  server = await startServer({ ...serverOptions(), accessLog: (line) => accessLog.push(line) });
  owner = server.store.accounts.create({ templateLimit: 1000 });
  other = server.store.accounts.create();
  catalogs = await readCatalogs(server, owner.apiKey);
});
afterAll(async () => {
  await server?.close();
});

/** A layout element carrying a free-form property of `noteLength` characters. */
const noted = (noteLength: number) => ({ type: 'text', x: 0, y: 0, width: 0.1, height: 0.1, note: 'n'.repeat(noteLength) });
const withElements = (portrait: unknown[], landscape: unknown[] = []) => ({
  ...minimalBody(catalogs),
  layouts: { portrait: { elements: portrait }, ...(landscape.length > 0 ? { landscape: { elements: landscape } } : {}) },
});
const templateCount = () => server.store.templates.count(owner.accountId);

/**
 * A new account of `on` with 50 templates of about 250 KiB: its `?limit=100` page is about
 * 12 MiB, more than a socket buffers, so a client that does not read holds its request open.
 */
function bigPages(on: RunningServer): IssuedKey {
  const account = on.store.accounts.create({ templateLimit: 1000 });
  // Checked as the API checks it, so that its defaults are filled in.
  const validation = validateTemplateBody(
    withElements(
      Array.from({ length: 120 }, () => noted(1000)),
      Array.from({ length: 120 }, () => noted(1000)),
    ),
    on.store.catalogs.get(),
  );
  if (!validation.success) throw new Error(JSON.stringify(validation.issues));
  const big = validation.template;
  for (let i = 0; i < 50; i++) on.store.templates.create(account.accountId, account.userId, big);
  return account;
}

describe('item 2: one account cannot make the server hold gigabytes', () => {
  it('a template over 256 KiB once stored is refused 413 naming the limit, though each part is within its cap', async () => {
    const before = templateCount();
    // 2 x 150 elements of ~1 KiB: about 320 KiB, well under the 1 MiB body limit.
    const elements = Array.from({ length: 150 }, () => noted(1000));
    const body = withElements(elements, elements);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(1024 * 1024);
    const answer = await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body });
    expect(expectError(answer, 413, 'PAYLOAD_TOO_LARGE').message).toContain('256 KiB');
    expect(templateCount()).toBe(before);
    // The same refusal on a PUT, which leaves the template as it was.
    const stored = await createTemplate(server, owner.apiKey, minimalBody(catalogs));
    expectError(await api(server, 'PUT', `/api/v2/templates/${stored.id}`, { key: owner.apiKey, body }), 413, 'PAYLOAD_TOO_LARGE');
    expect((await api(server, 'GET', `/api/v2/templates/${stored.id}`, { key: owner.apiKey })).body).toEqual(stored);
    // Just under the cap is stored.
    const under = Array.from({ length: 110 }, () => noted(1000));
    expect((await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body: withElements(under, under) })).status).toBe(201);
  });

  it('more than 200 layout elements in one orientation are a 400 at that orientation', async () => {
    const tiny = { type: 'map', x: 0, y: 0, width: 0.1, height: 0.1 };
    const answer = await api(server, 'POST', '/api/v2/templates', {
      key: owner.apiKey,
      body: withElements(Array.from({ length: 200 }, () => tiny), Array.from({ length: 201 }, () => tiny)),
    });
    const issues = expectIssues(answer, 'layouts.landscape.elements').issues!;
    expect(issues.map((issue) => issue.path)).not.toContain('layouts.portrait.elements');
    expect(issues[0]!.message).toContain('200');
  });

  it('a free-form element property over 1,024 characters (as JSON) is a 400 at its path; a style object within it is kept', async () => {
    const answer = await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body: withElements([noted(1000), noted(1025)]) });
    expect(expectIssues(answer, 'layouts.portrait.elements.1.note').issues).toHaveLength(1);
    const nested = await api(server, 'POST', '/api/v2/templates', {
      key: owner.apiKey,
      body: withElements([{ ...noted(10), style: { rows: Array.from({ length: 300 }, (_, i) => i) } }]),
    });
    expectIssues(nested, 'layouts.portrait.elements.0.style');
    const styled = { ...noted(10), style: { bold: true } };
    const kept = await createTemplate(server, owner.apiKey, withElements([styled]));
    expect(kept.layouts!.portrait!.elements[0]).toEqual(styled);
  });

  it('with serve asked for a cap of 4 requests in flight per account, the next is 429 RATE_LIMITED with Retry-After; other accounts are served', async () => {
    const capped = await startServer({ ...serverOptions(), maxInFlightPerAccount: 4 });
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

  it('an answer its client stops reading is dropped after the stall limit, which frees the account for all its keys', { timeout: 120_000 }, async () => {
    // Its own server, with the stall limit shortened from 10 s, and a cap on requests in flight
    // to show the account's slots held.
    const stalling = await startServer({ ...serverOptions(), responseStallMs: 300, maxInFlightPerAccount: 4 });
    const held: Socket[] = [];
    try {
      const account = bigPages(stalling);
      const subUser = stalling.store.keys.create(account.accountId, { subUserName: 'field team' })!;
      for (let i = 0; i < 4; i++) held.push(await unreadRequest(stalling.url, '/api/v2/templates?limit=100', account.apiKey));
      const presets = (key: string) => api(stalling, 'GET', '/api/v2/templates/presets?limit=1', { key });
      // The stalled answers hold all 4 of the account's slots, for every key of it...
      expect((await eventually(() => presets(subUser.apiKey), (answer) => answer.status === 429)).status).toBe(429);
      // ...until the server drops them: nothing here reads or closes those sockets.
      expect((await eventually(() => presets(subUser.apiKey), (answer) => answer.status === 200)).status).toBe(200);
      expect((await presets(account.apiKey)).status).toBe(200);
      // Dropped, not finished: read now, the connections end before their answers' last byte.
      // Not every one: loopback buffers may grow to 32 MiB here and take a whole 12 MiB page, and
      // the server then sees that answer as sent.
      const short: boolean[] = [];
      for (const socket of held) {
        const received = await readAnswer(socket);
        const head = received.subarray(0, received.indexOf('\r\n\r\n')).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)![1]);
        short.push(received.length - head.length - 4 < length);
      }
      expect(short).toContain(true);
    } finally {
      for (const socket of held) socket.destroy();
      await stalling.close();
    }
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

  it('an answer read too slowly to finish within the deadline is dropped, though its client never stalls', { timeout: 120_000 }, async () => {
    const deadlined = await startServer({ ...serverOptions(), responseDeadlineMs: 500, responseStallMs: 120_000 });
    try {
      const account = bigPages(deadlined);
      const socket = await unreadRequest(deadlined.url, '/api/v2/templates?limit=100', account.apiKey);
      // A trickle: one chunk, then a pause, again and again; far below the 12 MiB page's size per deadline.
      socket.pause();
      socket.on('data', () => {
        socket.pause();
        setTimeout(() => socket.resume(), 20);
      });
      const receiving = readAnswer(socket);
      socket.resume();
      const received = await receiving;
      const head = received.subarray(0, received.indexOf('\r\n\r\n')).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      const length = Number(/content-length: (\d+)/i.exec(head)![1]);
      expect(received.length - head.length - 4).toBeLessThan(length);
      // The account is served again at once.
      expect((await api(deadlined, 'GET', '/api/v2/templates?limit=1', { key: account.apiKey })).status).toBe(200);
    } finally {
      await deadlined.close();
    }
  });

  it('the OpenAPI document states the caps', async () => {
    type Response = { description?: string; $ref?: string };
    const document = (await api(server, 'GET', '/api/v2/openapi.json')).body as {
      info: { description: string };
      paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
      components: { responses: Record<string, Response> };
    };
    // Shared answers are references to components.responses.
    const described = (response: Response | undefined) =>
      response?.$ref ? document.components.responses[response.$ref.split('/').at(-1)!]!.description : response?.description;
    expect(document.info.description).toContain('256 KiB');
    expect(document.info.description).toContain('200 layout elements');
    expect(described(document.paths['/api/v2/templates']!.post!.responses['413'])).toContain('256 KiB');
    expect(described(document.paths['/api/v2/templates']!.get!.responses['429'])).toContain('in flight');
    expect(described(document.paths['/api/v2/templates']!.get!.responses['503'])).toContain('192 MiB');
    expect(document.info.description).toContain('10 s is dropped');
    expect(JSON.stringify(document)).toContain('"maxItems":200');
  });

  it('a page read in steps is the same page: every document whole, in order, with the true total', async () => {
    const account = server.store.accounts.create({ templateLimit: 1000 });
    const made = [];
    for (let i = 0; i < 25; i++) made.push(await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: `step ${i}` })));
    const page = (await api(server, 'GET', '/api/v2/templates?limit=23&page=1', { key: account.apiKey })).body as {
      total: number;
      data: Array<{ name: string }>;
    };
    expect(page.total).toBe(25);
    expect(page.data.map((template) => template.name)).toEqual(made.reverse().slice(0, 23).map((template) => template.name));
  });
});

describe('item 7: keys in the access log', () => {
  it('a percent-encoded key in the query string or the path is masked', async () => {
    const tail = owner.apiKey.slice('rctl_'.length);
    const encodedAll = [...owner.apiKey].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    await api(server, 'GET', `/api/v2/templates?filter=rctl%5F${tail}`, { key: other.apiKey });
    await api(server, 'GET', `/api/v2/templates?filter=rctl%5f${tail}&page=1`, { key: other.apiKey });
    await api(server, 'GET', `/api/v2/templates/${encodedAll}`, { key: other.apiKey });
    await api(server, 'GET', `/api/v2/templates?lotId=%72ctl_${tail.slice(0, 10)}%2D${tail.slice(11)}`, { key: other.apiKey });
    const log = accessLog.join('\n');
    expect(log).not.toContain(tail.slice(0, 10));
    expect(log).not.toContain(tail.slice(-10));
    expect(log).toMatch(/GET \/api\/v2\/templates\?filter=rctl_\*\*\* 200 /);
    expect(log).toMatch(/GET \/api\/v2\/templates\?filter=rctl_\*\*\*&page=1 200 /);
    expect(log).toMatch(/GET \/api\/v2\/templates\/rctl_\*\*\* 404 /);
  });
});

describe('item 8: values that would be stored changed are refused', () => {
  const post = (rawBody: string) =>
    api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, rawBody, headers: { 'content-type': 'application/json' } });
  const bodyText = (fields: string) => JSON.stringify(withElements([noted(3)])).replace(/}$/, `,${fields}}`);

  it('a number too large for a double (1e309, stored as null before) is a 400 at its path, anywhere in the body', async () => {
    const before = templateCount();
    const inElement = JSON.stringify(withElements([{ ...noted(3), weight: 7 }])).replace('"weight":7', '"weight":1e309');
    expectIssues(await post(inElement), 'layouts.portrait.elements.0.weight');
    expectIssues(await post(JSON.stringify(withElements([noted(3)])).replace('"x":0', '"x":-1e400')), 'layouts.portrait.elements.0.x');
    expectIssues(
      await api(server, 'POST', '/api/v2/templates/validate-formula', {
        key: owner.apiKey,
        rawBody: '{"formula":"NIR","extra":[1,2,1e999]}',
        headers: { 'content-type': 'application/json' },
      }),
      'extra.2',
    );
    expect(templateCount()).toBe(before);
  });

  it('a lone surrogate in a name, a value or a property name is a 400 at its path', async () => {
    const before = templateCount();
    const named = (name: string) => JSON.stringify({ ...withElements([noted(3)]), name: 'x' }).replace('"name":"x"', `"name":"${name}"`);
    expectIssues(await post(named('lot \\ud800 7')), 'name');
    expectIssues(await post(named('\\udc00')), 'name');
    expectIssues(await post(bodyText('"layouts":{"portrait":{"elements":[{"type":"map","x":0,"y":0,"width":1,"height":1,"a\\ud83d":1}]}}')), 'layouts.portrait.elements.0.a\ud83d');
    // A pair is a character like any other.
    expect((await post(named('lot \\ud83c\\udf3d 7'))).status).toBe(201);
    expect(templateCount()).toBe(before + 1);
  });

  it('control characters: refused in names (NUL, ESC, tab, newline) and in every other string but tab, CR and LF', async () => {
    const before = templateCount();
    for (const name of ['lot\u00007', '\u001b]0;pwned\u0007', 'lot\t7', 'lot\n7', 'lot\u009b7']) {
      expectIssues(await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...minimalBody(catalogs), name } }), 'name');
    }
    const escaped = await api(server, 'POST', '/api/v2/templates', {
      key: owner.apiKey,
      body: withElements([{ ...noted(3), text: 'a\u001b[2Jb' }]),
    });
    expectIssues(escaped, 'layouts.portrait.elements.0.text');
    expect(templateCount()).toBe(before);
    const multiline = await createTemplate(server, owner.apiKey, withElements([{ ...noted(3), text: 'line 1\r\nline 2\tend' }]));
    expect(multiline.layouts!.portrait!.elements[0]!.text).toBe('line 1\r\nline 2\tend');
    const formula = await api(server, 'POST', '/api/v2/templates/validate-formula', {
      key: owner.apiKey,
      body: { formula: '(NIR - R)\n/ (NIR + R + eps)' },
    });
    expect(formula.status).toBe(200);
  });
});

describe('item 9: a request without Host', () => {
  it('gets the JSON error shape (400 VALIDATION_FAILED) and an access-log line', async () => {
    const logged = accessLog.length;
    const answer = await rawRequest(server.url, { method: 'GET', target: '/api/v2/openapi.json?no-host=1', omitHost: true });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json).toEqual({
      error: 'VALIDATION_FAILED',
      message: 'Request failed validation',
      issues: [{ path: '', message: 'An HTTP/1.1 request must have a Host header' }],
    });
    await eventually(
      async () => accessLog.length,
      (length) => length > logged,
    );
    expect(accessLog.slice(logged).join('\n')).toMatch(/GET \/api\/v2\/openapi\.json\?no-host=1 400 /);
    // With Host, the same request is answered.
    expect((await rawRequest(server.url, { method: 'GET', target: '/api/v2/openapi.json' })).status).toBe(200);
  });
});

describe("a request Node's parser refuses while its body is still coming", () => {
  it('is answered 400 and the answer reaches a client that writes its whole body first: no reset', async () => {
    const url = new URL(server.url);
    // More than loopback buffers hold: the client is still writing when the server answers.
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    for (let i = 0; i < 5; i++) {
      const received = await new Promise<{ text: string; error?: string }>((resolve) => {
        const socket = connect(Number(url.port), url.hostname);
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('error', (error: NodeJS.ErrnoException) => resolve({ text, error: error.code ?? error.message }));
        socket.on('close', () => resolve({ text }));
        // An unknown method: refused by Node's parser, before any of the app runs.
        socket.write(`FOO /api/v2/templates HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n`);
        socket.end(body);
      });
      expect(received.error).toBeUndefined();
      expect(received.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(received.text).toContain('"The request is not valid HTTP"');
    }
  });
});

/** Sends a GET and never reads the answer, so the server cannot finish sending it. */
function unreadRequest(baseUrl: string, path: string, key: string): Promise<Socket> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\napiKey: ${key}\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/**
 * What the socket receives until it closes or holds one whole answer: a page the server sent
 * whole leaves a keep-alive connection open, which would otherwise wait out its timeout.
 */
function readAnswer(socket: Socket): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    const done = () => resolve(Buffer.concat(chunks));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const received = Buffer.concat(chunks);
      const headEnd = received.indexOf('\r\n\r\n');
      const length = headEnd < 0 ? undefined : /content-length: (\d+)/i.exec(received.subarray(0, headEnd).toString('latin1'))?.[1];
      if (length !== undefined && received.length - headEnd - 4 >= Number(length)) {
        done();
        socket.destroy();
      }
    });
    socket.on('error', () => {});
    socket.once('close', done);
  });
}

/** Calls `attempt` until `done` holds for its result (every 50 ms, up to 10 s). */
async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((wake) => setTimeout(wake, 50));
  }
}
