import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliResult } from './cli.js';
import { checkTraffic } from './openapi-traffic.js';
import type { AnalysisType, ErrorBody, Paginated, ReportTypesCatalog, StatisticsCatalog, Template, VegetationIndexDefaults } from '../../src/contract/index.js';
import { api, type IssuedKey, type ServiceUnderTest } from './server.js';

/** ISO 8601 UTC with exactly three fractional digits (docs/decisions.md: timestamps in UTC with milliseconds). */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type ApiResponse = Awaited<ReturnType<typeof api>>;

export type { ErrorBody, ReportTypeEntry } from '../../src/contract/index.js';
export type Page<T> = Paginated<T>;
/** A template document as the service returns it. */
export type TemplateDoc = Template;

/** The three catalogs as the service serves them (vegetation-index defaults as `viDefaults`). */
export interface CatalogsOverHttp {
  reportTypes: Pick<ReportTypesCatalog, AnalysisType>;
  statistics: Pick<StatisticsCatalog, AnalysisType>;
  viDefaults: VegetationIndexDefaults;
}

/** The three catalogs, read over HTTP the way a client would before building a body. */
export async function readCatalogs(server: { url: string }, key: string): Promise<CatalogsOverHttp> {
  const [reportTypes, statistics, viDefaults] = await Promise.all([
    api(server, 'GET', '/api/v2/catalogs/report-types', { key }),
    api(server, 'GET', '/api/v2/catalogs/statistics', { key }),
    api(server, 'GET', '/api/v2/catalogs/vegetation-index-defaults', { key }),
  ]);
  for (const response of [reportTypes, statistics, viDefaults]) expect(response.status).toBe(200);
  return {
    reportTypes: reportTypes.body as CatalogsOverHttp['reportTypes'],
    statistics: statistics.body as CatalogsOverHttp['statistics'],
    viDefaults: viDefaults.body as CatalogsOverHttp['viDefaults'],
  };
}

/** A minimal valid body built from the catalogs: the first entry of the category for the type. */
export function minimalBody(
  catalogs: CatalogsOverHttp,
  options: { name?: string; analysisType?: AnalysisType; category?: 'general' | 'vegetation_index'; indexName?: string } = {},
): Record<string, unknown> {
  const analysisType = options.analysisType ?? 'counting';
  const category = options.category ?? 'general';
  const entry = catalogs.reportTypes[analysisType].find((candidate) => candidate.reportCategory === category);
  if (!entry) throw new Error(`no ${category} report type for ${analysisType} in the catalog`);
  const body: Record<string, unknown> = {
    name: options.name ?? `template ${Math.random().toString(36).slice(2, 8)}`,
    analysisType,
    reportType: entry.key,
    reportTypeId: entry.id,
    reportCategory: entry.reportCategory,
  };
  if (category === 'vegetation_index') body.indexName = options.indexName ?? 'NDVI';
  return body;
}

/** A body with every optional field given, so a PUT that leaves some out shows what is dropped. */
export function fullBody(catalogs: CatalogsOverHttp, name = 'full template'): Record<string, unknown> {
  const body = minimalBody(catalogs, { name, analysisType: 'replanting', category: 'vegetation_index', indexName: 'Custom_Index' });
  const entry = catalogs.reportTypes.replanting.find((candidate) => candidate.key === body.reportType)!;
  return {
    ...body,
    selectedStatistics: entry.statistics.slice(0, 2),
    layouts: {
      portrait: {
        elements: [
          { type: 'title', x: 0.05, y: 0.02, width: 0.9, height: 0.08, text: 'Lot report' },
          { type: 'map', x: 0.05, y: 0.12, width: 0.9, height: 0.6 },
        ],
      },
    },
    paperSize: 'a4',
    mapResolution: 300,
    margins: { top: 1, right: 1.5, bottom: 1, left: 1.5 },
    saviL: 0.3,
    formula: '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
    colorScale: {
      stops: [
        { value: -1, color: '#000000' },
        { value: 1, color: '#ffffff' },
      ],
    },
  };
}

/** The body exactly as docs/decisions.md (Errors) describe it: these keys and no others. */
export function expectError(response: ApiResponse, status: number, code: string): ErrorBody {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = response.body as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(status === 400 ? ['error', 'issues', 'message'] : ['error', 'message']);
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  if (status === 400) {
    expect(Array.isArray(body.issues)).toBe(true);
    expect(body.issues!.length).toBeGreaterThan(0);
    for (const issue of body.issues!) {
      expect(typeof issue.path).toBe('string');
      expect(typeof issue.message).toBe('string');
    }
  }
  return body;
}

/** A 400 VALIDATION_FAILED whose issue paths include every one of `paths`. */
export function expectIssues(response: ApiResponse, ...paths: string[]): ErrorBody {
  const body = expectError(response, 400, 'VALIDATION_FAILED');
  const seen = body.issues!.map((issue) => issue.path);
  for (const path of paths) expect(seen, `issue paths of ${response.text}`).toContain(path);
  return body;
}

/** The legacy X-RateLimit trio and the IETF draft pair, all present and well-formed. */
export function expectRateLimitHeaders(response: ApiResponse, limit?: number): void {
  const get = (name: string) => response.headers.get(name);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit']) {
    expect(get(name), `${name} on a ${response.status}`).not.toBeNull();
  }
  expect(get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(get('x-ratelimit-reset')).toMatch(/^\d+$/);
  if (limit !== undefined) {
    expect(Number(get('x-ratelimit-limit'))).toBe(limit);
    expect(get('ratelimit-policy')).toMatch(new RegExp(`q=${limit}\\b`));
  }
  expect(get('ratelimit-policy')).toMatch(/w=60\b/);
  expect(get('ratelimit')).toMatch(/r=\d+/);
  expect(get('ratelimit')).toMatch(/t=\d+/);
}

export async function createTemplate(server: { url: string }, key: string, body: unknown): Promise<TemplateDoc> {
  const response = await api(server, 'POST', '/api/v2/templates', { key, body });
  expect(response.status, response.text).toBe(201);
  return response.body as TemplateDoc;
}

/** Every item of a list, page by page (limit 100), in the service's order. */
export async function listAll<T>(server: { url: string }, key: string, path: string, query = ''): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const separator = query === '' ? '' : '&';
    const response = await api(server, 'GET', `${path}?${query}${separator}page=${page}&limit=100`, { key });
    expect(response.status, response.text).toBe(200);
    const envelope = response.body as Page<T>;
    items.push(...envelope.data);
    if (envelope.data.length === 0 || items.length >= envelope.total) return items;
  }
}

/** `reportctl admin ... --db FILE --json` with its exit code, for commands expected to fail. */
export function adminRaw(db: string, ...args: string[]): Promise<CliResult> {
  return runCli(['admin', ...args, '--db', db, '--json']);
}

/** A sub-user of `accountId` with its own key. */
export function newSubUser(server: ServiceUnderTest, accountId: string, name: string): Promise<IssuedKey> {
  return server.admin<IssuedKey>('keys', 'create', '--account', accountId, '--sub-user', name);
}

/** Runs `tasks` with at most `width` of them at a time (keeps child processes to the 2 cores). */
export async function inBatches<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Sends `requests` pipelined on one TCP connection, in one write, and returns the responses
 * in order, each checked against the OpenAPI document. The server handles them one after another with no client round trip between
 * them, so creations land within the same millisecond, in a known order.
 */
export async function pipelined(
  server: { url: string },
  key: string,
  requests: Array<{ method: string; path: string; body?: unknown }>,
): Promise<RawResponse[]> {
  const { connect } = await import('node:net');
  const url = new URL(server.url);
  const wire = requests
    .map(({ method, path, body }, index) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const last = index === requests.length - 1;
      return (
        `${method} ${path} HTTP/1.1\r\nHost: ${url.host}\r\napiKey: ${key}\r\n` +
        (body === undefined ? '' : `Content-Type: application/json\r\n`) +
        `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
        (last ? 'Connection: close\r\n' : '') +
        `\r\n${payload}`
      );
    })
    .join('');
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    socket.write(wire);
  });
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < raw.length && responses.length < requests.length) {
    const headerEnd = raw.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) throw new Error('truncated response');
    const [statusLine, ...headerLines] = raw.subarray(at, headerEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headers['transfer-encoding']) throw new Error('chunked responses are not expected from this server');
    const length = Number(headers['content-length'] ?? 0);
    const bodyText = raw.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    responses.push({ status: Number(statusLine!.split(' ')[1]), headers, body: bodyText === '' ? undefined : JSON.parse(bodyText) });
    at = headerEnd + 4 + length;
  }
  for (const [index, response] of responses.entries()) {
    const { method, path, body } = requests[index]!;
    await checkTraffic({
      method,
      target: path,
      headers: { apiKey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      status: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
      responseText: response.body === undefined ? '' : JSON.stringify(response.body),
    });
  }
  return responses;
}

/**
 * A database path on tmpfs when there is one: with `synchronous = FULL`, each commit waits
 * for the disk, which spreads creations over milliseconds; on tmpfs many share one.
 */
export function fastDbPath(): { db: string; cleanup(): void } {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, 'reportctl-http-'));
  return { db: join(dir, 'service.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
