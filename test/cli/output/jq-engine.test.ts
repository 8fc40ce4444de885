import { describe, expect, it } from 'vitest';
import { createJqEngine, JQ_LIMITS } from '../../../src/cli/output/jq-engine.js';

const INPUT = '{"name":"lot 7","count":3}';

/**
 * jq behind its bounds, in the test process: each bound stops a run with a jq-style message,
 * and the next run still gives jq's answer (a fresh jq where the last one was stopped midway).
 * The same attacks through the built binary, with signals, are in test/cli/jq.test.ts.
 */
describe('jq engine bounds', () => {
  it('runs jq: compact output, jq\'s status and message', async () => {
    const jq = createJqEngine();
    expect(await jq.run(INPUT, '.name, {count}')).toEqual({ output: '"lot 7"\n{"count":3}\n', stderr: '', status: 0 });
    const failed = await jq.run(INPUT, '.count, error("no such lot")');
    // What jq printed before its error stays, as with jq.
    expect(failed).toEqual({ output: '3\n', stderr: 'jq: error (at inputString:0): no such lot\n', status: 5 });
    expect((await jq.run('', '.[')).status).toBe(3);
  });

  it('a run past its time is stopped; the next one answers', async () => {
    const jq = createJqEngine({ timeMs: 300 });
    expect(await jq.run(INPUT, 'until(false; .)')).toEqual({ output: '', stderr: 'jq: error: the filter ran for more than 0.3 s and was stopped (REPORTCTL_JQ_TIMEOUT_MS)', status: 5 });
    expect(await jq.run(INPUT, '.count')).toEqual({ output: '3\n', stderr: '', status: 0 });
  });

  it('memory past its limit fails as jq does on a full machine; the next run answers', async () => {
    const jq = createJqEngine({ memoryBytes: 64 * 2 ** 20 });
    // A 32 MiB string: twice what the limit leaves room for while it is made.
    expect(await jq.run(INPUT, 'reduce range(25) as $i ("x"; . + .) | length')).toEqual({ output: '', stderr: 'jq: error: cannot allocate memory', status: 5 });
    expect(await jq.run(INPUT, '[range(1000)] | length')).toEqual({ output: '1000\n', stderr: '', status: 0 });
  });

  it('output past its limit is dropped with a message; stderr is cut at its own', async () => {
    const jq = createJqEngine({ outputBytes: 2 ** 20, stderrBytes: 1000 });
    expect(await jq.run(INPUT, 'range(300000)')).toEqual({ output: '', stderr: 'jq: error: the filter printed more than 1 MiB for one input', status: 5 });
    const noisy = await jq.run(INPUT, 'range(2000) | debug | empty');
    expect(noisy.status).toBe(0);
    expect(noisy.stderr.length).toBe(1000);
    expect(await jq.run(INPUT, '.count')).toEqual({ output: '3\n', stderr: '', status: 0 });
  });

  it('a value too deep for jq\'s stack is refused before it corrupts anything; shallower ones print', async () => {
    const jq = createJqEngine();
    const nested = (depth: number) => `(${JSON.stringify('['.repeat(depth))}) + (${JSON.stringify(']'.repeat(depth))}) | fromjson`;
    expect(await jq.run(INPUT, nested(20))).toEqual({ output: `${'['.repeat(20)}${']'.repeat(20)}\n`, stderr: '', status: 0 });
    for (const depth of [40, 100, 256]) {
      expect(await jq.run(INPUT, nested(depth))).toEqual({ output: '', stderr: 'jq: error: a value nested too deep for jq here (its stack ran out); nothing of this input was printed', status: 5 });
      expect(await jq.run(INPUT, '.count')).toEqual({ output: '3\n', stderr: '', status: 0 });
    }
    // Past jq's own parse limit, jq's message.
    expect((await jq.run(`${'['.repeat(300)}${']'.repeat(300)}`, '.')).stderr).toMatch(/^jq: error \(at inputString:0\): Exceeds depth limit for parsing|^jq: parse error: Exceeds depth limit for parsing/);
  });

  it('sees nothing of the user\'s: no file to include, none of the environment, no further input', async () => {
    const jq = createJqEngine();
    for (const filter of ['include "/etc/passwd"; .', 'import "a" as a; .']) expect((await jq.run('', filter)).stderr).toMatch(/^jq: error: module not found: /);
    process.env.REPORTCTL_TEST_SECRET = 'do not show';
    try {
      const seen = await jq.run(INPUT, '[$ENV, env] | tojson');
      expect(seen.output).not.toContain('do not show');
      expect(seen.output).not.toContain(process.env.HOME!);
      expect((await jq.run(INPUT, '[inputs]')).output).toBe('[]\n');
    } finally {
      delete process.env.REPORTCTL_TEST_SECRET;
    }
  });

  it('leaves the process\'s exit status alone (jq-web sets it as a C program would)', async () => {
    const before = process.exitCode;
    // As in main.ts, where nothing has set it yet.
    process.exitCode = undefined;
    try {
      await createJqEngine().run(INPUT, 'error("x")');
      expect(process.exitCode).toBeUndefined();
    } finally {
      process.exitCode = before;
    }
  });

  it('documents its limits', () => {
    expect(JQ_LIMITS).toEqual({ timeMs: 30_000, memoryBytes: 1024 * 2 ** 20, outputBytes: 256 * 2 ** 20, stderrBytes: 2 ** 20 });
  });
});
