// Across verbs: every table of the service's ids shows their first 8 characters on
// a terminal, whole ids with --wide, and whole ids whenever piped (README "Commands").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/server.js';

const suite = inProcessServiceForSuite();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
let runId = '';

beforeAll(async () => {
  const file = join(tempDir(), 'fixtures.json');
  writeFileSync(file, JSON.stringify({ queues: [{ name: 'north', steps: [{ lotId: 'lot-1', analysisType: 'counting' }, { lotId: 'lot-2', analysisType: 'path' }] }], runs: [{ queue: 0, name: 'first', advance: 3 }] }));
  await suite.server.admin('seed', '--account', suite.account.accountId, '--file', file);
  await runInProcess(['templates', 'create', '--from-preset', 'preset-counting-summary', '--name', 'ids'], { env: suite.env });
  const runs = await runInProcess(['queue-runs', 'list', '--json'], { env: suite.env });
  runId = (JSON.parse(runs.stdout) as { data: { id: string }[] }).data[0]!.id;
});

const tables = [['templates', 'list'], ['queues', 'list'], ['queue-runs', 'list'], ['analyses', 'list'], ['queue-runs', 'get', 'RUN']];

describe('ids in tables', () => {
  it.each(tables)('%s %s: 8 characters on a terminal, whole ones piped', async (...words) => {
    const command = words.map((word) => (word === 'RUN' ? runId : word));
    const [terminal, piped, json] = await Promise.all([
      runInProcess(command, { env: suite.env, tty: { stdout: true, columns: 200 } }),
      runInProcess(command, { env: suite.env }),
      runInProcess([...command, '--json'], { env: suite.env }),
    ]);
    expect(terminal.code).toBe(0);
    const ids = [...new Set(json.stdout.match(UUID))];
    expect(ids.length).toBeGreaterThan(0);
    // Fields above a table (queue-runs get) are not a table: only the table's lines count.
    const rows = terminal.stdout.split('\n').filter((line) => line.startsWith('│'));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.join('\n')).not.toMatch(UUID);
    const shown = ids.filter((id) => rows.some((row) => row.includes(id.slice(0, 8))));
    expect(shown.length).toBeGreaterThan(0);
    expect(piped.stdout).toMatch(UUID);
    for (const id of shown) expect(piped.stdout).toContain(id);
  });

  it.each([['queues', 'list'], ['analyses', 'list'], ['queue-runs', 'list'], ['templates', 'list']])('%s %s --wide shows whole ids', async (...command) => {
    const result = await runInProcess([...command, '--wide'], { env: suite.env, tty: { stdout: true, columns: 300 } });
    expect(result.stdout).toMatch(UUID);
  });
});
