// What the parity tests share: a target serve at the specification's limits on a fake clock
// (its waits cost nothing), holding data as an account in use does, with another account and a
// sub-user's key; parity run in the process against it; and a proxy that changes its answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, onTestFinished } from 'vitest';
import { seedFixtures } from '../../../src/admin/operations.js';
import type { IssuedKey } from '../../../src/server/store/index.js';
import { fakeClock, type FakeClock } from '../../helpers/clock.js';
import { inProcessServiceForSuite, runInProcess, type InProcessService } from '../../helpers/in-process.js';
import { api } from '../../helpers/server.js';

export const FAMILY = 'reportctl-parity-';
export const RECORDING = join(import.meta.dirname, '../../fixtures/parity');

export interface ParityJson {
  result: 'same' | 'differs';
  operations: { operation: string; result: string; steps: number; compared: number; notComparable: { step: string; reason: string }[]; specification: number }[];
  differences: { operation: string; step: string; path: string; expected: unknown; served: unknown }[];
  specification: { side: 'target' | 'serve'; rule: string; step: string; operation: string; expected: string; found: string }[];
  ignored: number;
  notChecked: string[];
  requests: { target?: number; serve: number };
  waitedSeconds: number;
}

/** What a target account in use holds: queues, runs in several states, their analyses and one more. */
export const HELD: unknown = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/parity-account.json'), 'utf8'));

export interface ParitySuite {
  server: InProcessService;
  account: IssuedKey;
  clock: FakeClock;
  other: IssuedKey;
  subUserKey: string;
  /** `reportctl parity --json ARGS` in the process against `url` (the target by default), on the suite's clock. */
  parity(args: string[], url?: string, options?: Parameters<typeof runInProcess>[1]): Promise<{ code: number | null; stdout: string; stderr: string; report?: ParityJson | undefined }>;
  /** The names of an account's templates from parity runs. */
  leftOnTarget(key?: string): Promise<string[]>;
}

/** The target for a describe block: at 120 reads and 30 writes a minute, on a fake clock. */
export function paritySuite(limits: { reads?: number; writes?: number } = {}): ParitySuite {
  const clock = fakeClock();
  const service = inProcessServiceForSuite({ readsPerMinute: limits.reads ?? 120, writesPerMinute: limits.writes ?? 30, now: clock.now });
  const suite = { clock } as ParitySuite;
  beforeAll(async () => {
    Object.assign(suite, { server: service.server, account: service.account });
    seedFixtures(service.server.running.store, service.account.accountId, HELD);
    suite.other = await service.server.newAccount();
    suite.subUserKey = (await service.server.admin<IssuedKey>('keys', 'create', '--account', service.account.accountId, '--sub-user', 'field-technician')).apiKey;
  });
  suite.parity = async (args, url = service.server.url, options = {}) => {
    // A new minute for each run: what earlier tests spent of the limits is not this run's.
    await clock.sleep(61_000);
    const result = await runInProcess(['parity', '--json', ...args], { clock, ...options, env: { REPORTCTL_BASE_URL: url, REPORTCTL_API_KEY: service.account.apiKey, ...options.env } });
    return { ...result, report: result.stdout.trim() === '' ? undefined : (JSON.parse(result.stdout) as ParityJson) };
  };
  suite.leftOnTarget = async (key = service.account.apiKey) => {
    await clock.sleep(61_000);
    const page = await api(service.server, 'GET', '/api/v2/templates?limit=100', { key });
    return (page.body as { data: { name: string }[] }).data.map((template) => template.name).filter((name) => name.startsWith(FAMILY));
  };
  return suite;
}

/** What a request to the proxy was. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

/** An answer the proxy is about to send, to change in place. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What a proxy in front of the target changes in one answer; one that throws drops the connection. */
export type Change = (request: ProxiedRequest, answer: ProxiedAnswer) => void;

/** What a proxy does before passing a request on: send it elsewhere (a path and query), or answer it itself. */
export type Before = (request: ProxiedRequest) => { url: string } | { answer: ProxiedAnswer } | undefined;

/**
 * A proxy to `target` that may rewrite or answer a request itself (`before`) and changes the
 * answers it passes on (`change`), and counts the requests it was sent.
 */
export async function proxyTo(target: string, change: Change = () => {}, before: Before = () => undefined): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      requests += 1;
      const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      try {
        const url = new URL(incoming.url!, 'http://proxy');
        const request: ProxiedRequest = { method: incoming.method!, path: url.pathname, headers, query: url.searchParams, body: body ? (JSON.parse(body.toString()) as unknown) : undefined };
        const instead = before(request);
        let answer: ProxiedAnswer;
        if (instead !== undefined && 'answer' in instead) {
          answer = instead.answer;
        } else {
          const response = await fetch(target + (instead?.url ?? incoming.url), { method: incoming.method!, headers, ...(body ? { body } : {}) });
          const text = await response.text();
          answer = {
            status: response.status,
            headers: Object.fromEntries([...response.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))),
            body: text === '' ? undefined : (JSON.parse(text) as unknown),
          };
        }
        change(request, answer);
        const out = answer.body === undefined ? '' : JSON.stringify(answer.body);
        outgoing.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(out) });
        outgoing.end(out);
      } catch {
        outgoing.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

/** The items of a page the proxy passes on, to change in place. */
export const itemsIn = (answer: ProxiedAnswer): Record<string, unknown>[] => ((answer.body as { data?: unknown } | undefined)?.data as Record<string, unknown>[] | undefined) ?? [];
