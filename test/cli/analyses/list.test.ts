import { describe, beforeAll, expect, it } from 'vitest';
import { registerAnalysesList } from '../../../src/cli/commands/analyses/list.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANSI } from '../../helpers/cli.js';
import { api, tempDir } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import type { Analysis, Paginated as Page } from '../../../src/contract/index.js';

describe('analyses list flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAnalysesList(program.command('analyses'), deps, wrap, runF),
    [
      [['analyses', 'list'], { options: {} }],
      [['analyses', 'ls', '--lot', 'lot-7', '--analysis-type', 'path', '--status', 'failed'], { options: { lot: 'lot-7', analysisType: 'path', status: 'failed' } }],
      [['analyses', 'list', '--all', '--wide', '--json'], { options: { all: true, wide: true, json: true } }],
      [['analyses', 'list', '--status', 'running'], { usage: /--status.*Valid: completed, failed/ }],
      [['analyses', 'list', '--analysis-type', 'countin'], { usage: /--analysis-type.*did you mean counting\?/ }],
      [['analyses', 'list', '--lot'], { usage: /option '--lot <id>' argument missing/ }],
    ],
  );
});

const suite = inProcessServiceForSuite();
const env = () => suite.env;
const key = () => suite.account.apiKey;
const types = ['counting', 'replanting', 'path'] as const;

beforeAll(async () => {
  const file = join(tempDir(), 'fixtures.json');
  writeFileSync(
    file,
    JSON.stringify({
      analyses: Array.from({ length: 150 }, (_, index) => ({
        lotId: `lot-${index % 4}`,
        analysisType: types[index % 3],
        status: index % 7 === 0 ? 'failed' : 'completed',
      })),
    }),
  );
  await suite.server.admin('seed', '--account', suite.account.accountId, '--file', file);
});

describe('analyses list', () => {
  it('--json prints the page the service returned', async () => {
    const [result, expected] = await Promise.all([
      runInProcess(['analyses', 'list', '--json', '--limit', '30', '--page', '3'], { env: env() }),
      api(suite.server, 'GET', '/api/v2/analyses?limit=30&page=3', { key: key() }),
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
  });

  it('--lot, --analysis-type and --status become the lotId, analysisType and status query parameters', async () => {
    const [result, expected] = await Promise.all([
      runInProcess(['analyses', 'list', '--lot', 'lot-1', '--analysis-type', 'replanting', '--status', 'completed', '--all', '--json'], { env: env() }),
      api(suite.server, 'GET', '/api/v2/analyses?lotId=lot-1&analysisType=replanting&status=completed&limit=100', { key: key() }),
    ]);
    expect(result.code).toBe(0);
    const items = (JSON.parse(result.stdout) as Page<Analysis>).data;
    expect(items).toEqual((expected.body as Page<Analysis>).data);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect([item.lotId, item.analysisType, item.status]).toEqual(['lot-1', 'replanting', 'completed']);
  });

  it('--all returns every analysis exactly once across pages', async () => {
    const result = await runInProcess(['analyses', 'list', '--all', '--json'], { env: env() });
    expect(result.code).toBe(0);
    const items = (JSON.parse(result.stdout) as Page<Analysis>).data;
    expect(items).toHaveLength(150);
    expect(new Set(items.map((item) => item.id)).size).toBe(150);
    const pages = await Promise.all([1, 2].map((page) => api(suite.server, 'GET', `/api/v2/analyses?limit=100&page=${page}`, { key: key() })));
    expect(items).toEqual(pages.flatMap((page) => (page.body as Page<Analysis>).data));
  });

  it('piped: tab-separated rows, no colour, nothing but rows on stdout', async () => {
    const result = await runInProcess(['analyses', 'list', '--status', 'failed', '--limit', '100'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    const rows = result.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows).toHaveLength(Math.ceil(150 / 7));
    for (const row of rows) expect(row[3]).toBe('failed');
    expect(result.stderr).toBe('');
  });

  it('an empty result is success', async () => {
    const result = await runInProcess(['analyses', 'list', '--lot', 'lot-none'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('a status outside the allowed set is a usage error (exit 2)', async () => {
    const result = await runInProcess(['analyses', 'list', '--status', 'running'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('completed, failed');
  });
});
