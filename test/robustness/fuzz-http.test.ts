// Across modules: every endpoint of a real server fuzzed over raw sockets.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type IssuedKey, type TestServer } from '../helpers/server.js';
import { createTemplate, fullBody, readCatalogs, type CatalogsOverHttp, type TemplateDoc } from '../helpers/http.js';
import { answerProblem, rawRequest, type RawAnswer, type RawRequest } from '../helpers/raw-http.js';

/**
 * Property-based fuzzing of every endpoint of one real server, over raw sockets: whatever
 * arrives, the answer is a documented success or one of the status/code pairs of docs/decisions.md (Errors) with
 * exactly `{ error, message[, issues] }` — never a 500, never a hang — the server still answers
 * afterwards, and a rejected write changes nothing.
 */

let server: TestServer;
let owner: IssuedKey;
let catalogs: CatalogsOverHttp;
/** Valid template bodies: the catalog-built full body and every preset's seedPayload. */
let validBodies: Array<Record<string, unknown>>;
/** A template of the fuzzed account that PUTs replace (and that is put back afterwards). */
let target: TemplateDoc;
let targetBody: Record<string, unknown>;

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  success: number;
}

/** Every endpoint of the service; `{id}` is filled in per request. */
const ROUTES: Route[] = [
  { method: 'GET', path: '/api/v2/templates', success: 200 },
  { method: 'POST', path: '/api/v2/templates', success: 201 },
  { method: 'GET', path: '/api/v2/templates/presets', success: 200 },
  { method: 'GET', path: '/api/v2/templates/{id}', success: 200 },
  { method: 'PUT', path: '/api/v2/templates/{id}', success: 200 },
  { method: 'DELETE', path: '/api/v2/templates/{id}', success: 204 },
  { method: 'POST', path: '/api/v2/templates/validate-formula', success: 200 },
  { method: 'GET', path: '/api/v2/catalogs/report-types', success: 200 },
  { method: 'GET', path: '/api/v2/catalogs/statistics', success: 200 },
  { method: 'GET', path: '/api/v2/catalogs/vegetation-index-defaults', success: 200 },
  { method: 'GET', path: '/api/v2/queues', success: 200 },
  { method: 'GET', path: '/api/v2/queue-runs', success: 200 },
  { method: 'GET', path: '/api/v2/analyses', success: 200 },
  { method: 'POST', path: '/api/v0/analyses', success: 200 },
  { method: 'GET', path: '/api/v2/openapi.json', success: 200 },
];
const BODY_ROUTES = ROUTES.filter((route) => route.method === 'POST' || route.method === 'PUT');
const LIST_PATHS = ['/api/v2/templates', '/api/v2/templates/presets', '/api/v2/queues', '/api/v2/queue-runs', '/api/v2/analyses'];
const UNKNOWN_PATHS = [
  '/no-such-page',
  '/api',
  '/api/v2',
  '/api/v3/templates',
  '/api/v2/templates/{id}/versions',
  '/api/v2/catalogs',
  '/api/v2/catalogs/colours',
  '/api/v0/analyses/extra',
  '//api/v2/templates',
  '/api/v2/queue-runs/run-1/retry',
  '*',
  'http://elsewhere/api/v2/templates',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'CONNECT', 'FOO', 'get', 'G ET'];
const CONTENT_TYPES: Array<string | undefined> = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json-patch+json',
  'application/json, text/plain',
  '',
  undefined,
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

const BAD_KEY = `rctl_${'x'.repeat(43)}`;

beforeAll(async () => {
  server = await startServe();
  owner = await server.newAccount({ templateLimit: 100_000 });
  catalogs = await readCatalogs(server, owner.apiKey);
  const presets = await send({ method: 'GET', target: '/api/v2/templates/presets?limit=100', headers: [['apiKey', owner.apiKey]] });
  validBodies = [fullBody(catalogs), ...(presets.json as { data: Array<{ seedPayload: Record<string, unknown> }> }).data.map((preset) => preset.seedPayload)];
  targetBody = fullBody(catalogs, 'the PUT target');
  target = await createTemplate(server, owner.apiKey, targetBody);
  await createTemplate(server, owner.apiKey, validBodies[1]!);
});
afterAll(async () => {
  await server?.stop();
});

function send(request: RawRequest): Promise<RawAnswer> {
  return rawRequest(server.url, request, 10_000);
}

const withKey = (key: string | undefined, headers: Array<[string, string]> = []): Array<[string, string]> =>
  key === undefined ? headers : [['apiKey', key], ...headers];

/** The fuzzed account's templates as the first page of 100 shows them (total included). */
async function snapshot(): Promise<string> {
  const answer = await send({ method: 'GET', target: '/api/v2/templates?limit=100', headers: withKey(owner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  return answer.text;
}

async function expectHealthy(): Promise<void> {
  const answer = await send({ method: 'GET', target: '/api/v2/catalogs/statistics', headers: withKey(owner.apiKey) });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.ms).toBeLessThan(5_000);
}

function describeRequest(request: RawRequest): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length}): ${request.body.toString().slice(0, 200)}`;
  return `${request.method} ${request.target.slice(0, 200)} ${JSON.stringify(request.headers ?? []).slice(0, 300)}${body}`;
}

function expectDocumented(request: RawRequest, answer: RawAnswer, success: readonly number[]): void {
  expect(answerProblem(answer, request.method, success), describeRequest(request)).toBeNull();
}

/** After a write the service accepted, put things back so the next run starts from the same state. */
async function undoAccepted(request: RawRequest, answer: RawAnswer): Promise<void> {
  if (answer.status === 201) {
    const created = answer.json as TemplateDoc;
    // What was acknowledged is what is stored.
    const readBack = await send({ method: 'GET', target: `/api/v2/templates/${created.id}`, headers: withKey(owner.apiKey) });
    expect(readBack.json, describeRequest(request)).toEqual(created);
    const removed = await send({ method: 'DELETE', target: `/api/v2/templates/${created.id}`, headers: withKey(owner.apiKey) });
    expect(removed.status).toBe(204);
  } else if (request.method === 'PUT' && answer.status === 200) {
    const restored = await send({
      method: 'PUT',
      target: `/api/v2/templates/${target.id}`,
      headers: withKey(owner.apiKey, [['content-type', 'application/json']]),
      body: JSON.stringify(targetBody),
    });
    expect(restored.status, restored.text).toBe(200);
  } else if (request.method === 'DELETE' && answer.status === 204) {
    throw new Error(`a fuzzed DELETE removed something: ${describeRequest(request)}`);
  }
}

/** Whether the answer says the write was carried out (read-only POSTs never change anything). */
const changedSomething = (request: RawRequest, answer: RawAnswer): boolean =>
  answer.status === 201 || (request.method === 'PUT' && answer.status === 200) || (request.method === 'DELETE' && answer.status === 204);

/**
 * Sends a write and checks that, unless it was accepted, the account is as it was just before
 * it. The "before" is taken in the same run, so a failure (and every run fast-check replays
 * while shrinking it) is pinned on the request that caused it.
 */
async function sendWrite(request: RawRequest): Promise<RawAnswer> {
  const before = await snapshot();
  const answer = await send(request);
  if (changedSomething(request, answer)) await undoAccepted(request, answer);
  else if (answer.status < 500) expect(await snapshot(), `${answer.status} to ${describeRequest(request)} changed the account`).toBe(before);
  return answer;
}

// ---- generators -------------------------------------------------------------------------

/** Placeholders replaced after JSON.stringify: building 100,000 levels as objects would overflow the test's own stack. */
const DEEP_ARRAY = (depth: number) => `\u0001deep-array-${depth}`;
const DEEP_OBJECT = (depth: number) => `\u0001deep-object-${depth}`;
const HUGE = (length: number) => `\u0001huge-${length}`;

function serialise(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text
    .replace(/"\\u0001deep-array-(\d+)"/g, (_, depth: string) => '['.repeat(Number(depth)) + ']'.repeat(Number(depth)))
    .replace(/"\\u0001deep-object-(\d+)"/g, (_, depth: string) => '{"a":'.repeat(Number(depth)) + '1' + '}'.repeat(Number(depth)))
    .replace(/"\\u0001huge-(\d+)"/g, (_, length: string) => JSON.stringify('é'.repeat(Math.floor(Number(length) / 2))));
}

/** Values of every JSON type and shape, and some that are not JSON at all. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 2, withNullPrototype: true, withBoxedValues: true }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 0.5, 1e308, -0, '', ' ', '150', '#ffffff', 'NDVI', 'Custom_Index', 'NIR / R', [], {}, [null], [{}], { stops: [] }),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 1_100_000 }).map(HUGE) },
  { weight: 1, arbitrary: fc.constantFrom(65, 1_000, 100_000).map(DEEP_ARRAY) },
  { weight: 1, arbitrary: fc.constantFrom(65, 100_000).map(DEEP_OBJECT) },
);

type Key = string | number;
/** Every path into a body: `["margins", "top"]`, `["layouts", "portrait", "elements", 0, "x"]`... */
function pathsOf(value: unknown, prefix: Key[] = []): Key[][] {
  if (!Array.isArray(value) && !isObject(value)) return [];
  const entries: Array<[Key, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value as object);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

function setOwn(holder: Record<Key, unknown>, key: Key, value: unknown): void {
  // defineProperty: `holder.__proto__ = ...` would set the prototype, not a key JSON.stringify writes.
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}

type Mutation =
  | { kind: 'replace'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: unknown }
  | { kind: 'rename'; name: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // A harmless change keeps valid bodies common, so both successes show up on every seed.
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('rename' as const), name: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim().length > 0) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: anyValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.oneof(
        fc.constantFrom(...PROTO_KEYS, 'id', 'userId', 'createdAt', 'updatedAt', 'formula', 'saviL', 'indexName', 'colorScale', 'toString', 'hasOwnProperty'),
        fc.string({ maxLength: 12 }),
      ),
      value: anyValue,
    }),
  },
);

/** A valid body with some fields, at any depth, replaced by wrong types, removed, or joined by odd keys. */
function mutate(base: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const body = structuredClone(base);
  for (const change of mutations) {
    if (change.kind === 'rename') {
      body.name = change.name;
      continue;
    }
    const paths = pathsOf(body);
    if (change.kind === 'add') {
      // Into the root or any nested object.
      const holders = [[], ...paths.filter((path) => isObject(get(body, path)))];
      const holder = holders[change.pick % holders.length]!;
      setOwn(get(body, holder) as Record<Key, unknown>, change.key, copyOf(change.value));
      continue;
    }
    if (paths.length === 0) continue;
    const path = paths[change.pick % paths.length]!;
    const parent = get(body, path.slice(0, -1)) as Record<Key, unknown>;
    const last = path[path.length - 1]!;
    if (change.kind === 'replace') setOwn(parent, last, copyOf(change.value));
    else if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  }
  return body;
}

/** A plain object (not an array, not a boxed primitive or other built-in). */
const isObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};
/** Generated values are shared between runs while shrinking: never mutate one in place. */
function copyOf(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
const get = (value: unknown, path: Key[]): unknown => path.reduce<unknown>((node, key) => (node as Record<Key, unknown>)[key], value);

/** Body bytes of any kind: JSON of any shape, plain text, random bytes, invalid UTF-8. */
const anyBodyBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: anyValue.map((value) => Buffer.from(serialise(value), 'utf8')) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((text) => Buffer.from(text, 'utf8')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => Buffer.from(text, 'utf8')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Buffer.from('{"formula":"NIR \xff\xfe"}', 'latin1'),
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      Buffer.from('\ufeff{}', 'utf8'),
      Buffer.from('{"lotId":"\ud800"}', 'utf8'),
      Buffer.from('["' + '\\u0000'.repeat(10) + '"]'),
      Buffer.from('{"a":1,"a":2}'),
      Buffer.from('{"__proto__":{"admin":true}}'),
      Buffer.from('{"a":{"constructor":{"prototype":{"admin":true}}}}'),
      Buffer.from('['.repeat(100_000) + ']'.repeat(100_000)),
      Buffer.from('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)),
      Buffer.from('{"formula":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}'),
    ),
  },
);

const NUM_RUNS = 120;

// ---- properties -------------------------------------------------------------------------

describe('the answer checker', () => {
  it('accepts exactly the documented shapes, Node parser answers included, and refuses Fastify’s own', () => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '1' }): RawAnswer => ({
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      text: JSON.stringify(body),
      json: body,
      ms: 1,
    });
    const notHttp = { error: 'VALIDATION_FAILED', message: 'The request is not valid HTTP', issues: [{ path: '', message: 'The request is not valid HTTP' }] };
    expect(answerProblem(answer(431, { error: 'PAYLOAD_TOO_LARGE', message: 'x' }), 'GET', [])).toBeNull();
    expect(answerProblem(answer(400, notHttp), 'GET', [])).toBeNull();
    expect(answerProblem(answer(408, { error: 'REQUEST_TIMEOUT', message: 'x' }), 'GET', [])).toBeNull();
    // Parser answers carry the client address's rate-limit headers too.
    expect(answerProblem(answer(400, notHttp, {}), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(404, { error: 'NOT_FOUND', message: 'x' }), 'GET', [])).toBeNull();
    // Fastify's defaults, a 500, a leaked stack, a missing issues list, a wrong code, no rate-limit headers.
    expect(answerProblem(answer(431, { error: 'Request Header Fields Too Large', message: 'x', statusCode: 431 }, {}), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(400, { error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: 'x', statusCode: 400 }), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(500, { error: 'INTERNAL_ERROR', message: 'x' }), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(404, { error: 'NOT_FOUND', message: 'Error\n    at handler (file:///srv/app.js:1:2)' }), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(400, { error: 'VALIDATION_FAILED', message: 'x' }), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(404, { error: 'METHOD_NOT_ALLOWED', message: 'x' }), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(404, { error: 'NOT_FOUND', message: 'x' }, {}), 'GET', [])).not.toBeNull();
    expect(answerProblem(answer(408, notHttp), 'GET', [])).not.toBeNull();
  });
});

describe('fuzzing every endpoint over raw HTTP', () => {
  it('any method on any known or unknown path, with or without a key or a body: a documented answer', { timeout: 120_000 }, async () => {
    const paths = [...ROUTES.map((route) => route.path), ...UNKNOWN_PATHS, ...LIST_PATHS.map((path) => `${path}/`)];
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        // Reads with the right key are weighted up so that successes are common enough for the
        // coverage check below to hold on every seed, not on most of them.
        fc.oneof({ arbitrary: fc.constantFrom('GET', 'HEAD'), weight: 1 }, { arbitrary: fc.constantFrom(...METHODS), weight: 1 }),
        fc.constantFrom(...paths),
        fc.constantFrom(UNKNOWN_ID, 'x', '%7Bid%7D', '..', 'rctl_nope', 'a'.repeat(600), '%zz', '%C0%AF', '%00', 'é'),
        fc.oneof({ arbitrary: fc.constant<string | undefined>(owner.apiKey), weight: 1 }, { arbitrary: fc.constantFrom<string | undefined>(owner.apiKey, undefined, BAD_KEY), weight: 1 }),
        fc.option(fc.tuple(fc.constantFrom(...CONTENT_TYPES), anyBodyBytes), { freq: 2 }),
        async (method, pathTemplate, id, key, payload) => {
          const request: RawRequest = {
            method,
            target: pathTemplate.replace('{id}', id),
            headers: withKey(key, payload?.[0] === undefined ? [] : [['content-type', payload[0]]]),
            ...(payload ? { body: payload[1] } : {}),
          };
          const isWrite = method !== 'GET' && method !== 'HEAD' && key === owner.apiKey;
          let answer: RawAnswer;
          try {
            answer = isWrite ? await sendWrite(request) : await send(request);
          } catch (error) {
            // A CONNECT asks for a proxy tunnel: with no tunnel handler, Node closes the socket at
            // once, before any app code (promptly: a hang would be the timeout's error).
            if (method === 'CONNECT' && /without a complete answer|ECONNRESET|EPIPE/.test(String(error))) return;
            throw error;
          }
          // A trailing slash names the same route.
          const route = ROUTES.find(
            (candidate) =>
              candidate.path === pathTemplate.replace(/(.)\/$/, '$1') && (candidate.method === method || (method === 'HEAD' && candidate.method === 'GET')),
          );
          // Only a known route may succeed; ids here never name a template, so no GET/PUT/DELETE by id can.
          const success = route && !pathTemplate.includes('{id}') ? [route.success] : [];
          expectDocumented(request, answer, success);
          seen.add(answer.status);
        },
      ),
      { numRuns: 150 },
    );
    // The generators reach every kind of answer, not one of them over and over.
    for (const status of [200, 400, 401, 404, 405]) expect([...seen], 'statuses seen').toContain(status);
    await expectHealthy();
  });

  it('template bodies mutated field by field, at any depth, POSTed and PUT: 201/200 or 400/413, and a rejection stores nothing', { timeout: 120_000 }, async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...validBodies.keys()),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('POST', 'PUT'),
        async (which, mutations, method) => {
          const body = mutate(validBodies[which]!, mutations);
          const seenStatus = (status: number) => seen.set(status, (seen.get(status) ?? 0) + 1);
          const request: RawRequest = {
            method,
            target: method === 'POST' ? '/api/v2/templates' : `/api/v2/templates/${target.id}`,
            headers: withKey(owner.apiKey, [['content-type', 'application/json']]),
            body: serialise(body),
          };
          const answer = await sendWrite(request);
          const success = method === 'POST' ? 201 : 200;
          expectDocumented(request, answer, [success]);
          expect([success, 400, 413], describeRequest(request)).toContain(answer.status);
          seenStatus(answer.status);
        },
      ),
      { numRuns: NUM_RUNS },
    );
    console.info('mutated template bodies, answers by status:', Object.fromEntries(seen));
    expect([...seen.keys()].sort()).toEqual(expect.arrayContaining([200, 201, 400]));
    await expectHealthy();
  });

  it('any body bytes under any content type to every endpoint that takes a body (and to DELETE)', { timeout: 120_000 }, async () => {
    const targets = [...BODY_ROUTES, { method: 'DELETE' as const, path: '/api/v2/templates/{id}', success: 204 }];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), fc.constantFrom(...CONTENT_TYPES), anyBodyBytes, async (route, contentType, body) => {
        // PUT replaces the real template; DELETE aims at an unknown id so that nothing can be removed.
        const id = route.method === 'PUT' ? target.id : UNKNOWN_ID;
        const request: RawRequest = {
          method: route.method,
          target: route.path.replace('{id}', id),
          headers: withKey(owner.apiKey, contentType === undefined ? [] : [['content-type', contentType]]),
          body,
        };
        const answer = await sendWrite(request);
        const success = route.method === 'DELETE' ? [] : [route.success];
        expectDocumented(request, answer, success);
        const allowed = [...success, 400, 413, 415, ...(route.method === 'DELETE' ? [404] : [])];
        expect(allowed, describeRequest(request)).toContain(answer.status);
      }),
      { numRuns: NUM_RUNS },
    );
    await expectHealthy();
  });

  it('odd query strings on every list: repeated and array params, unicode, bad escapes, empty and 8 KB values', { timeout: 120_000 }, async () => {
    const names = ['page', 'limit', 'analysisType', 'reportType', 'reportCategory', 'status', 'lotId', 'limit[]', 'page[0]', ...PROTO_KEYS, 'hasOwnProperty', '', 'ünï', '%zz', 'a%00b'];
    const value = fc.oneof(
      fc.constantFrom('1', '2', '0', '-1', '100', '101', '1e2', '1.5', '+1', ' 1', '0x10', '', '%zz', '%', '%E9', '%C3%A9', '%00', 'counting', 'completed', 'general', 'true', '[]', '{}', 'null'),
      fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constant('x'.repeat(8 * 1024)),
    );
    const param = fc.tuple(fc.constantFrom(...names), fc.option(value, { freq: 6 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...LIST_PATHS),
        fc.array(param, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('&', '&', ';', '&&'),
        async (path, params, separator) => {
          const query = params.map(([name, v]) => (v === null ? name : `${name}=${v}`)).join(separator);
          const request: RawRequest = { method: 'GET', target: `${path}?${query}`, headers: withKey(owner.apiKey) };
          const answer = await send(request);
          expectDocumented(request, answer, [200]);
          expect([200, 400, 431], describeRequest(request)).toContain(answer.status);
          if (answer.status === 200) {
            const envelope = answer.json as { total: unknown; page: unknown; limit: unknown; data: unknown };
            expect(Number.isInteger(envelope.total) && Number.isInteger(envelope.page) && Number.isInteger(envelope.limit)).toBe(true);
            expect(Array.isArray(envelope.data)).toBe(true);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
    await expectHealthy();
  });

  it('very long URLs and headers (up to ~64 KB) and odd header shapes: documented answers, 431 past the limit', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('path', 'id', 'query', 'header', 'many-headers', 'key-header'),
        fc.integer({ min: 1, max: 66_000 }),
        fc.constantFrom('a', '%41', 'é', '%zz', '/'),
        async (where, length, unit) => {
          const filler = unit.repeat(Math.max(1, Math.floor(length / unit.length)));
          const headers = withKey(owner.apiKey);
          let target = '/api/v2/templates';
          if (where === 'path') target = `/${filler}`;
          else if (where === 'id') target = `/api/v2/templates/${filler}`;
          else if (where === 'query') target = `/api/v2/templates?reportType=${filler}`;
          else if (where === 'header') headers.push(['X-Filler', filler]);
          else if (where === 'many-headers') for (let i = 0; i < Math.min(2_000, length / 30); i++) headers.push([`X-H${i}`, 'v']);
          else headers.splice(0, 1, ['apiKey', filler]);
          const request: RawRequest = { method: 'GET', target, headers };
          const answer = await send(request);
          expectDocumented(request, answer, [200]);
          // Past Node's 16 KiB limit on the request line and headers: 431. Raw non-ASCII bytes in
          // the request line are refused by Node's parser first (400).
          if (length > 20_000 && where !== 'many-headers') {
            expect(unit === 'é' && where !== 'header' && where !== 'key-header' ? [400, 431] : [431], describeRequest(request)).toContain(answer.status);
          }
        },
      ),
      { numRuns: 60 },
    );
    await expectHealthy();
  });
});

describe('the extremes, each once', () => {
  const post = (target: string, body: Buffer | string, contentType = 'application/json', method = 'POST'): Promise<RawAnswer> =>
    send({ method, target, headers: withKey(owner.apiKey, [['content-type', contentType]]), body });

  it('100,000 levels of nesting, bare and inside a valid-looking body, are a 400 at "" on every body endpoint', async () => {
    const before = await snapshot();
    const deepArray = '['.repeat(100_000) + ']'.repeat(100_000);
    const deepObject = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const inTemplate = serialise(mutate(validBodies[0]!, [{ kind: 'add', pick: 0, key: 'extra', value: DEEP_ARRAY(100_000) }]));
    // Inside a layout element, whose own extra properties are kept as sent.
    const inElement = JSON.stringify(targetBody).replace('"type":"title"', `"deep":${deepArray},"type":"title"`);
    for (const route of BODY_ROUTES) {
      const targetPath = route.path.replace('{id}', target.id);
      // Valid-looking first: there, without the depth limit, serialising the stored document overflows the stack.
      for (const body of [inElement, inTemplate, deepArray, deepObject, `{"formula":${deepObject}}`, `{"lotId":${deepArray}}`]) {
        const answer = await post(targetPath, body, 'application/json', route.method);
        expect(answerProblem(answer, route.method, []), `${route.method} ${targetPath}`).toBeNull();
        expect(answer.status).toBe(400);
        expect((answer.json as { issues: Array<{ path: string }> }).issues.map((issue) => issue.path)).toEqual(['']);
      }
    }
    expect(await snapshot()).toBe(before);
    await expectHealthy();
  });

  it('strings of about 1 MB: 400 at the field under the limit, 413 over it; never stored', async () => {
    const before = await snapshot();
    for (const route of BODY_ROUTES) {
      const targetPath = route.path.replace('{id}', target.id);
      const field = route.path.includes('validate-formula') ? 'formula' : route.path.includes('v0') ? 'lotId' : 'name';
      const base = route.path.includes('templates') && !route.path.includes('validate') ? { ...targetBody } : {};
      const under = JSON.stringify({ ...base, [field]: 'é'.repeat(500_000) });
      const over = JSON.stringify({ ...base, [field]: 'x'.repeat(1024 * 1024 + 1) });
      const underAnswer = await post(targetPath, under, 'application/json', route.method);
      expect(answerProblem(underAnswer, route.method, [route.success]), `${route.method} ${targetPath} under`).toBeNull();
      if (field !== 'lotId') expect(underAnswer.status).toBe(400);
      const overAnswer = await post(targetPath, over, 'application/json', route.method);
      expect(answerProblem(overAnswer, route.method, []), `${route.method} ${targetPath} over`).toBeNull();
      expect(overAnswer.status).toBe(413);
    }
    expect(await snapshot()).toBe(before);
    await expectHealthy();
  });

  it('__proto__, constructor and prototype keys, at the top and nested, are refused and pollute nothing', async () => {
    const before = await snapshot();
    const bodies = [
      '{"__proto__":{"admin":true}}',
      `{"name":"p","__proto__":{"reportCategory":"general"}}`,
      JSON.stringify(targetBody).replace('"margins":{', '"margins":{"__proto__":{"top":1},'),
      JSON.stringify(targetBody).replace('"type":"title"', '"constructor":{"prototype":{"admin":true}},"type":"title"'),
      JSON.stringify({ ...targetBody, constructor: { prototype: { isAdmin: true } } }),
      JSON.stringify({ ...targetBody, prototype: 1 }),
      JSON.stringify({ ...targetBody, constructor: 1 }),
    ];
    for (const route of BODY_ROUTES) {
      // The deprecated search ignores fields it does not know (old clients send them): a page,
      // unless the body parser already refused a `__proto__` key.
      const ignoresUnknown = route.path === '/api/v0/analyses';
      for (const body of bodies) {
        const answer = await post(route.path.replace('{id}', target.id), body, 'application/json', route.method);
        expect(answerProblem(answer, route.method, ignoresUnknown ? [200] : []), `${route.method} ${route.path}: ${body.slice(0, 80)}`).toBeNull();
        expect(ignoresUnknown ? [200, 400] : [400]).toContain(answer.status);
      }
    }
    expect(await snapshot()).toBe(before);
    // The server's objects were not polluted: a fresh list has no stray fields.
    const list = await send({ method: 'GET', target: '/api/v2/templates?limit=1', headers: withKey(owner.apiKey) });
    expect(Object.keys(list.json as object).sort()).toEqual(['data', 'limit', 'page', 'total']);
    await expectHealthy();
  });

  it('invalid UTF-8 in a body is a 400 at "" that says where, not stored as U+FFFD', async () => {
    const before = await snapshot();
    // A name in Latin-1 ("Café" with a lone 0xE9), a truncated two-byte sequence, a UTF-16 BOM.
    const [left, right] = JSON.stringify({ ...targetBody, name: 'Caf@@' }).split('@@') as [string, string];
    const latin1Name = Buffer.concat([Buffer.from(left), Buffer.from([0xe9]), Buffer.from(right)]);
    const truncated = Buffer.concat([Buffer.from(left), Buffer.from([0xc3]), Buffer.from(right)]);
    const bodies: Array<[Buffer, number]> = [[latin1Name, Buffer.byteLength(left)], [truncated, Buffer.byteLength(left)], [Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), 0]];
    for (const [body, offset] of bodies) {
      for (const contentType of ['application/json', 'application/json; charset=latin1']) {
        const answer = await post('/api/v2/templates', body, contentType);
        expect(answerProblem(answer, 'POST', []), body.toString('latin1').slice(0, 80)).toBeNull();
        expect(answer.status).toBe(400);
        const [issue] = (answer.json as { issues: Array<{ path: string; message: string }> }).issues;
        expect(issue!.path).toBe('');
        expect(issue!.message).toMatch(new RegExp(`^The body is not valid UTF-8: at byte offset ${offset} \\(line 1\\), 0x`));
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('each content type on each body endpoint with an otherwise valid body', async () => {
    const before = await snapshot();
    for (const route of BODY_ROUTES) {
      const body = route.path.includes('validate') ? '{"formula":"NIR"}' : route.path.includes('v0') ? '{}' : JSON.stringify(targetBody);
      for (const contentType of CONTENT_TYPES) {
        const request: RawRequest = {
          method: route.method,
          target: route.path.replace('{id}', target.id),
          headers: withKey(owner.apiKey, contentType === undefined ? [] : [['content-type', contentType]]),
          body,
        };
        const answer = await sendWrite(request);
        expectDocumented(request, answer, [route.success]);
        const json = contentType !== undefined && /^application\/json(;|$)/i.test(contentType);
        expect(answer.status, describeRequest(request)).toBe(json ? route.success : 415);
      }
    }
    // Accepted PUTs were put back; their updatedAt moved, nothing else.
    const after = JSON.parse(await snapshot()) as { total: number };
    expect(after.total).toBe((JSON.parse(before) as { total: number }).total);
  });

  it('a malformed percent-escape in the path is a 400 VALIDATION_FAILED (or 404/405/401), never a 500', async () => {
    const cases: Array<[method: string, target: string, key: string | undefined, status: number]> = [
      ['GET', '/api/v2/templates/%zz', owner.apiKey, 400],
      ['PUT', '/api/v2/templates/%E9', owner.apiKey, 400],
      ['DELETE', '/api/v2/templates/%', owner.apiKey, 400],
      ['GET', '/api/v2/templates/%zz', undefined, 401],
      ['PATCH', '/api/v2/templates/%zz', owner.apiKey, 405],
      ['GET', '/api/v2/%zz', owner.apiKey, 404],
      ['GET', '/%zz', undefined, 404],
      ['GET', `/api/v2/templates/${'b'.repeat(600)}`, owner.apiKey, 404],
    ];
    for (const [method, path, key, status] of cases) {
      const request: RawRequest = { method, target: path, headers: withKey(key) };
      const answer = await send(request);
      expectDocumented(request, answer, []);
      expect(answer.status, `${method} ${path}`).toBe(status);
    }
    await expectHealthy();
  });
});
