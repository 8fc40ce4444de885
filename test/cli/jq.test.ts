// Across verbs: `--jq EXPR` runs jq on exactly what `--json` prints (one list, `--all`'s merged
// list, each line of a watch stream), with jq's own messages and the CLI's exit codes.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { QueueRun as Run } from '../../src/contract/index.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { fakeClock } from '../helpers/clock.js';
import { createTemplate } from '../helpers/http.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { api } from '../helpers/server.js';

const FORMULA = '(NIR - R) / (NIR + R + eps)';
const check = (expression: string, options: Parameters<typeof runInProcess>[1] = {}) => runInProcess(['formula', 'check', FORMULA, '--jq', expression], options);

/**
 * Expressions and what jq 1.7 prints for them, with `-r` (strings raw) and `-c` (piped), over
 * `formula check`'s JSON: {"formula":"(NIR - R) / (NIR + R + eps)","valid":true,"usesL":false,"errors":[]}.
 */
const TABLE: Array<[expression: string, jq17: string]> = [
  ['.valid', 'true'],
  ['.formula', '(NIR - R) / (NIR + R + eps)'],
  ['{valid, usesL}', '{"valid":true,"usesL":false}'],
  ['.errors | length', '0'],
  ['keys', '["errors","formula","usesL","valid"]'],
  ['keys_unsorted | join(",")', 'formula,valid,usesL,errors'],
  ['.valid, .usesL', 'true\nfalse'],
  ['[.valid, .usesL] | @csv', 'true,false'],
  ['.formula | @sh', "'(NIR - R) / (NIR + R + eps)'"],
  ['.formula | @base64', 'KE5JUiAtIFIpIC8gKE5JUiArIFIgKyBlcHMp'],
  ['.formula | split(" ") | length', '9'],
  ['[limit(2; .formula | splits(" "))]', '["(NIR","-"]'],
  ['"\\(.formula) is \\(if .valid then "valid" else "invalid" end)"', '(NIR - R) / (NIR + R + eps) is valid'],
  ['.formula | test("eps$"; "x")', 'false'],
  ['.formula | ascii_downcase | ltrimstr("(")', 'nir - r) / (nir + r + eps)'],
  ['.missing', 'null'],
  ['.missing // "none"', 'none'],
  ['empty', ''],
  ['pick(.valid)', '{"valid":true}'],
  ['to_entries | map(select(.value == false)) | from_entries', '{"usesL":false}'],
  ['.errors | @json', '[]'],
  ['[paths] | length', '4'],
  ['100000000000000000001', '100000000000000000001'],
  ['reduce range(1; 5) as $n (0; . + $n)', '10'],
];

describe('--jq over one JSON value', () => {
  it.each(TABLE)('%s', async (expression, jq17) => {
    const result = await check(expression);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(jq17 === '' ? '' : `${jq17}\n`);
  });

  it('indents what is not a string on a terminal, and makes control characters visible there', async () => {
    const terminal = await check('{valid}', { tty: { stdout: true } });
    expect(terminal.stdout).toBe('{\n  "valid": true\n}\n');
    const hostile = '"title\\u001b]0;PWNED\\u0007 \\u001b[2J"';
    expect((await check(hostile, { tty: { stdout: true } })).stdout).toBe('title\\x1b]0;PWNED\\x07 \\x1b[2J\n');
    // Piped, a raw string is exactly what jq gives: scripts get the bytes.
    expect((await check(hostile)).stdout).toBe('title\u001b]0;PWNED\u0007 \u001b[2J\n');
  });

  it('a failing command keeps its exit code, and jq filters what it printed', async () => {
    const result = await runInProcess(['formula', 'check', 'NIR / R', '--jq', '[.valid, (.errors | length)]']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('[false,1]\n');
  });
});

describe('--jq errors', () => {
  it('an expression jq cannot compile: jq\'s message, exit 2, and the command does not run', async () => {
    const result = await check('.valid[');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^jq: error: syntax error, unexpected end of file/);
    expect(result.stderr).toMatch(/\njq: 1 compile error\n$/);
  });

  it('under --json the compile error is one JSON line', async () => {
    const result = await check('.valid[', { env: {} });
    const json = await runInProcess(['formula', 'check', FORMULA, '--json', '--jq', '.valid[']);
    expect(json.code).toBe(2);
    const line = JSON.parse(json.stderr) as { error: string; message: string; exitCode: number };
    expect(line).toMatchObject({ error: 'USAGE', exitCode: 2 });
    expect(line.message).toBe(result.stderr.trimEnd());
  });

  it('an error jq raises on the input: jq\'s message, exit 1; a JSON line under --json', async () => {
    const result = await check('.valid[0]');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('jq: error (at <stdin>:0): Cannot index boolean with number\n');
    const custom = await check('error("no such lot")');
    expect(custom.stderr).toBe('jq: error (at <stdin>:0): no such lot\n');
    const json = await runInProcess(['formula', 'check', FORMULA, '--json', '--jq', '.valid[0]']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({ error: 'JQ_ERROR', message: 'jq: error (at <stdin>:0): Cannot index boolean with number', exitCode: 1 });
  });

  it('--jq without an expression is a usage error', async () => {
    const result = await runInProcess(['formula', 'check', FORMULA, '--jq']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/option '--jq <expression>' argument missing/);
  });
});

const suite = inProcessServiceForSuite();
const envOf = () => ({ REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey });
const NAMES = Array.from({ length: 23 }, (_, index) => `jq lot ${String(index + 1).padStart(2, '0')}`);

describe('--jq over the service', () => {
  beforeAll(async () => {
    const presets = await api(suite.server, 'GET', '/api/v2/templates/presets', { key: suite.account.apiKey });
    const seed = (presets.body as { data: Array<{ seedPayload: Record<string, unknown> }> }).data[0]!.seedPayload;
    for (const name of NAMES) await createTemplate(suite.server, suite.account.apiKey, { ...seed, name });
  });

  it('over one page, as --json prints it', async () => {
    const result = await runInProcess(['templates', 'list', '--limit', '5', '--jq', '[.total, .page, .limit, (.data | length)]'], { env: envOf() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[23,1,5,5]\n');
    const names = await runInProcess(['templates', 'list', '--limit', '3', '--jq', '.data[].name'], { env: envOf() });
    // Newest first, one raw string per line.
    expect(names.stdout).toBe(`${NAMES.slice(-3).reverse().join('\n')}\n`);
  });

  it('once over --all: the pages merged into one list', async () => {
    const result = await runInProcess(['templates', 'list', '--all', '--jq', '[.total, (.data | length), (.data | map(.name) | sort == $names)]'.replace('$names', JSON.stringify(NAMES))], {
      env: envOf(),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[23,23,true]\n');
  });

  it('once per line of a watch stream', async () => {
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', suite.account.accountId, '--name', 'jq lots', '--step', 'lot-a:counting');
    const run = await suite.server.admin<Run>('queue-runs', 'enqueue', '--queue', queue.id);
    // pending → claimed → running → completed, one advance at every other wait.
    const clock = fakeClock({
      onSleep: async (count) => {
        if (count % 2 === 0 && count / 2 <= 3) await suite.server.admin<Run>('queue-runs', 'advance', run.id);
      },
    });
    const result = await runInProcess(['queue-runs', 'watch', run.id, '--interval', '0.5', '--jq', '.status'], { env: envOf(), clock });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('pending\nclaimed\nrunning\ncompleted\n');
  });

  it('a write command with an expression jq refuses sends nothing', async () => {
    const before = (await api(suite.server, 'GET', '/api/v2/templates?limit=1', { key: suite.account.apiKey })).body as { total: number };
    const result = await runInProcess(['templates', 'delete', 'jq lot 01', '--yes', '--jq', '.['], { env: envOf() });
    expect(result.code).toBe(2);
    const after = (await api(suite.server, 'GET', '/api/v2/templates?limit=1', { key: suite.account.apiKey })).body as { total: number };
    expect(after.total).toBe(before.total);
  });

  it('the built binary: through a real pipe, the engine loaded from the installed files', async () => {
    const result = await runCli(['templates', 'list', '--limit', '2', '--jq', '.data[] | {name}'], { env: envOf() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${NAMES.slice(-2).reverse().map((name) => JSON.stringify({ name })).join('\n')}\n`);
  });

  it('Ctrl-C halfway through a filtered watch: what jq printed stays, exit 130', async () => {
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', suite.account.accountId, '--name', 'jq stuck', '--step', 'lot-b:counting');
    const run = await suite.server.admin<Run>('queue-runs', 'enqueue', '--queue', queue.id);
    const watch = await spawnCli(['queue-runs', 'watch', run.id, '--interval', '0.5', '--jq', '"\\(.name): \\(.status)"'], { env: envOf() });
    expect(watch.firstLine).toBe('jq stuck: pending');
    expect(await watch.stop('SIGINT')).toEqual({ code: 130, signal: null });
    expect(watch.stdout()).toBe('jq stuck: pending\n');
  });
});

describe('completion', () => {
  it.each(['reportctl.bash', '_reportctl', 'reportctl.fish'])('%s offers --jq', (file) => {
    expect(readFileSync(new URL(`../../completions/${file}`, import.meta.url), 'utf8')).toMatch(/--jq|'jq'|-l jq/);
  });
});
