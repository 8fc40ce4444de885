// Across verbs: network commands read well-formed answers through the generated checks (src/client/response-validation.ts)
// and do not load zod or build the contract's schemas: the built binary against the service in this process.
// zod is bundled, so no module hook sees it; zod's global config (globalThis.__zod_globalConfig,
// set when zod's core loads) is the sign that it ran.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import { tempDir } from '../helpers/server.js';

const dir = tempDir();
const PROBE = join(dir, 'zod-probe.cjs');
writeFileSync(PROBE, "process.on('exit', () => process.stderr.write(`\\nzod loaded: ${globalThis.__zod_globalConfig !== undefined}\\n`));\n");

// Not spawnSync: the service answers from this process, whose event loop must keep running.
async function run(args: string[], env: Record<string, string>): Promise<{ status: number | null; stderr: string; zodLoaded: boolean }> {
  const result = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${PROBE}` } });
  const verdict = /zod loaded: (true|false)/.exec(result.stderr)?.[1];
  if (verdict === undefined) throw new Error(`the probe did not run: ${result.stderr}`);
  return { status: result.code, stderr: result.stderr, zodLoaded: verdict === 'true' };
}

describe('network commands do not load zod on answers the checks pass', () => {
  const suite = inProcessServiceForSuite();
  let env: Record<string, string>;
  const named: Record<string, string> = {};
  beforeAll(async () => {
    const { accountId } = suite.account;
    env = { ...suite.env, REPORTCTL_CACHE_DIR: join(dir, 'cache') };
    const presets = await runCli(['templates', 'presets', '--json'], { env });
    const preset = (JSON.parse(presets.stdout) as { data: Array<{ seedPayload: Record<string, unknown> }> }).data.at(-1)!;
    named.FILE = join(dir, 'template.json');
    writeFileSync(named.FILE, JSON.stringify({ ...preset.seedPayload, name: 'checked' }));
    named.BAD = join(dir, 'bad.json');
    writeFileSync(named.BAD, JSON.stringify({ ...preset.seedPayload, name: 'bell\u0007' }));
    const queue = await suite.server.admin<{ id: string }>('queues', 'create', '--account', accountId, '--name', 'q', '--step', 'lot-1:counting');
    named.RUN = (await suite.server.admin<{ id: string }>('queue-runs', 'enqueue', '--queue', queue.id)).id;
    await suite.server.admin('queue-runs', 'cancel', named.RUN);
  });

  it.each([
    [['templates', 'create', '--file', 'FILE']],
    [['templates', 'list']],
    [['templates', 'list', '--all', '--json']],
    [['catalogs', 'report-types']],
    [['queue-runs', 'list']],
    [['queue-runs', 'watch', 'RUN']],
    [['templates', 'get', 'no-such-template']],
  ])('reportctl %j', async (args) => {
    const result = await run(args.map((word) => named[word] ?? word), env);
    expect(result.status === 0 || result.status === 4, result.stderr).toBe(true);
    expect(result.zodLoaded).toBe(false);
  });

  it('a body the check refuses loads zod for its issues (the probe is not vacuous)', async () => {
    const result = await run(['templates', 'create', '--file', named.BAD!], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^ {2}name: must not contain control characters$/m);
    expect(result.zodLoaded).toBe(true);
  });
});
