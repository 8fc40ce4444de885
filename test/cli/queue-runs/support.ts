// What the tests of queues list and queue-runs list and get share: an account with more
// queues and runs than one page holds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Paginated as Page } from '../../../src/contract/index.js';
import { runInProcess } from '../../helpers/in-process.js';
import { api, tempDir, type IssuedKey, type ServiceUnderTest } from '../../helpers/server.js';

/** A new account with 105 queues and 130 runs in several states, for paging. */
export async function accountWithManyRuns(server: ServiceUnderTest): Promise<IssuedKey> {
  const account = await server.newAccount();
  const file = join(tempDir(), 'fixtures.json');
  writeFileSync(
    file,
    JSON.stringify({
      queues: Array.from({ length: 105 }, (_, index) => ({ name: `queue ${index}`, steps: [{ lotId: `lot-${index}`, analysisType: 'counting' }] })),
      runs: Array.from({ length: 130 }, (_, index) => ({ queue: index % 105, name: `run ${index}`, advance: index % 5 })),
    }),
  );
  await server.admin('seed', '--account', account.accountId, '--file', file);
  return account;
}

const envFor = (server: ServiceUnderTest, apiKey: string) => ({ REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: apiKey });

/** `COMMAND --json` prints the page the service returned at `path`. */
export async function expectPageAsServed(server: ServiceUnderTest, apiKey: string, command: string[], path: string): Promise<void> {
  const [result, expected] = await Promise.all([runInProcess([...command, '--json'], { env: envFor(server, apiKey) }), api(server, 'GET', path, { key: apiKey })]);
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual(expected.body);
}

/** `COMMAND --all --json` returns each of the `total` items at `path` exactly once, in the service's order. */
export async function expectEveryItemOnce(server: ServiceUnderTest, apiKey: string, command: string[], path: string, total: number): Promise<void> {
  const result = await runInProcess([...command, '--all', '--json'], { env: envFor(server, apiKey) });
  expect(result.code).toBe(0);
  const items = (JSON.parse(result.stdout) as Page<{ id: string }>).data;
  expect(items).toHaveLength(total);
  expect(new Set(items.map((item) => item.id)).size).toBe(total);
  const pages = await Promise.all([1, 2].map((page) => api(server, 'GET', `${path}?limit=100&page=${page}`, { key: apiKey })));
  expect(items).toEqual(pages.flatMap((page) => (page.body as Page<unknown>).data));
}
