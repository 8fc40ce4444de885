import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, runCli, type CliResult, type SpawnedCli } from './cli.js';
import { checkTraffic } from './openapi-traffic.js';
import type { IssuedKey } from '../../src/server/store/index.js';

export type { IssuedKey };

/** A service on a free port with its own database file, and its admin commands. */
export interface ServiceUnderTest {
  url: string;
  db: string;
  /** `reportctl admin ... --db <this db> --json`, parsed; a failure throws. */
  admin<T = unknown>(...args: string[]): Promise<T>;
  /** The same command's exit code and streams, for tests of a failing admin step. */
  adminResult(...args: string[]): Promise<CliResult>;
  newAccount(options?: { templateLimit?: number }): Promise<IssuedKey>;
  stop(): Promise<void>;
}

/** A real `reportctl serve` child process. */
export interface TestServer extends ServiceUnderTest {
  process: SpawnedCli;
}

export function tempDir(prefix = 'reportctl-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A loopback base URL where nothing listens: a port the OS gave out a moment ago, released. */
export async function closedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** `reportctl admin ... --db DB --json` run by `run` (a child process or in this one). */
export function adminOn(db: string, run: (args: string[]) => Promise<CliResult>): Pick<ServiceUnderTest, 'admin' | 'adminResult'> {
  const adminResult = (...args: string[]) => run(['admin', ...args, '--db', db, '--json']);
  const admin = async <T>(...args: string[]): Promise<T> => {
    const result = await adminResult(...args);
    if (result.code !== 0) throw new Error(`admin ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
    return (result.stdout.trim() === '' ? undefined : JSON.parse(result.stdout)) as T;
  };
  return { admin, adminResult };
}

export async function startServe(
  options: {
    readsPerMinute?: number;
    writesPerMinute?: number;
    /** No rate-limit flags at all: serve's own defaults, where functional tests raise them. */
    defaultLimits?: boolean;
    extraArgs?: string[];
    db?: string;
    env?: Record<string, string>;
  } = {},
): Promise<TestServer> {
  const db = options.db ?? join(tempDir(), 'service.db');
  const limits = options.defaultLimits
    ? []
    : ['--reads-per-minute', String(options.readsPerMinute ?? 100_000), '--writes-per-minute', String(options.writesPerMinute ?? 100_000)];
  const spawned = await spawnCli(
    ['serve', '--port', '0', '--db', db, '--json', '--no-access-log', ...limits, ...(options.extraArgs ?? [])],
    options.env ? { env: options.env } : {},
  );
  const first = JSON.parse(spawned.firstLine) as { url: string; db: string };
  const { admin, adminResult } = adminOn(db, runCli);
  return {
    url: first.url,
    db,
    process: spawned,
    admin,
    adminResult,
    newAccount: (opts = {}) =>
      admin<IssuedKey>('accounts', 'create', ...(opts.templateLimit !== undefined ? ['--template-limit', String(opts.templateLimit)] : [])),
    stop: async () => {
      await spawned.stop('SIGTERM');
    },
  };
}

/**
 * fetch with the key in the `apiKey` header and JSON in and out. Every exchange is checked
 * against the OpenAPI document; a mismatch fails the test (see openapi-traffic.ts).
 */
export async function api(
  server: { url: string },
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers.apiKey = options.key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(server.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  await checkTraffic({
    method,
    target: path,
    headers,
    ...(options.body !== undefined ? { body: options.body } : options.rawBody !== undefined ? { body: options.rawBody } : {}),
    status: response.status,
    responseHeaders: Object.fromEntries(response.headers),
    responseBody: parsed,
    responseText: text,
  });
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * A server and one account for a whole describe block (started before its tests, stopped
 * after). Read the fields inside tests: they are set once `beforeAll` has run.
 */
export function serverForSuite(options: Parameters<typeof startServe>[0] = {}): { server: TestServer; account: IssuedKey; env: Record<string, string> } {
  return suiteWith(() => startServe(options));
}

/** A service from `start`, and one account, for a describe block. */
export function suiteWith<Service extends ServiceUnderTest>(start: () => Promise<Service>): { server: Service; account: IssuedKey; env: Record<string, string> } {
  const suite = {} as { server: Service; account: IssuedKey; env: Record<string, string> };
  beforeAll(async () => {
    suite.server = await start();
    suite.account = await suite.server.newAccount();
    suite.env = { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey };
  });
  afterAll(async () => {
    await suite.server?.stop();
  });
  return suite;
}
