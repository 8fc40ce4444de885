import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesShowPlan } from '../../../src/cli/commands/templates/show-plan.js';
import { planFileText, savedPlanOf } from '../../../src/cli/commands/templates/support/saved-plan.js';
import { templateFileText } from '../../../src/cli/commands/templates/support/folder.js';
import { generalBody } from '../../contract/fixtures.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { closedUrl, tempDir } from '../../helpers/server.js';
import { accountOn, readJson, writeJson } from './support.js';

describe('templates show-plan flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesShowPlan(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'show-plan', 'plan.json'], { options: {}, args: ['plan.json'] }],
      [['templates', 'show-plan', 'plan.json', '--format', 'markdown', '--previews-url', 'https://x.test/a'], { options: { format: 'markdown', previewsUrl: 'https://x.test/a' }, args: ['plan.json'] }],
      [['templates', 'show-plan', 'plan.json', '--json'], { options: { json: true }, args: ['plan.json'] }],
      [['templates', 'show-plan'], { usage: /missing required argument 'plan'/ }],
      [['templates', 'show-plan', 'plan.json', '--format', 'md'], { usage: /did you mean markdown\?/ }],
    ],
  );
});

const suite = inProcessServiceForSuite();

/** A folder beside its plan: Alpha replaced (its map narrower), Gamma created, Beta deleted. */
async function savedPlan() {
  const { run, create } = await accountOn(suite.server);
  const map = { type: 'map', x: 0.05, y: 0.2, width: 0.9, height: 0.7 };
  await create(generalBody({ name: 'Alpha', layouts: { portrait: { elements: [map] } } }));
  await create(generalBody({ name: 'Beta' }));
  const root = tempDir();
  const dir = join(root, 'templates');
  mkdirSync(dir);
  writeJson(join(dir, 'alpha.json'), generalBody({ name: 'Alpha', layouts: { portrait: { elements: [{ ...map, width: 0.5 }] } } }));
  writeJson(join(dir, 'gamma.json'), generalBody({ name: 'Gamma' }));
  const plan = join(root, 'plan.json');
  const url = 'https://github.com/agro/templates/actions/runs/7/artifacts/9';
  const diffs = {
    text: await run(['templates', 'diff', dir, '--prune', '--out', plan]),
    markdown: await run(['templates', 'diff', dir, '--prune', '--format', 'markdown', '--previews-url', url]),
    json: await run(['templates', 'diff', dir, '--prune', '--json']),
  };
  for (const diff of Object.values(diffs)) expect(diff.code, diff.stderr).toBe(10);
  return { root, dir, plan, url, diffs };
}

/** show-plan with a base URL where nothing listens: any request would fail the run. */
async function offline(args: string[]) {
  return runInProcess(['templates', 'show-plan', ...args], { env: { REPORTCTL_BASE_URL: await closedUrl(), REPORTCTL_API_KEY: 'rctl_none' } });
}

describe('templates show-plan', () => {
  it('shows a saved plan again from the file alone, offline, as diff printed it: text, Markdown and JSON', async () => {
    const { root, plan, url, diffs } = await savedPlan();
    // diff names files as it was given the folder; the plan, relative to itself.
    const relative = (text: string) => text.replaceAll(`${root}/`, '');
    const text = await offline([plan]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(relative(diffs.text.stdout));
    expect(text.stdout).toContain('~ layouts.portrait map: width 0.9 → 0.5\n');
    expect(text.stderr).toBe(`${plan}: a plan for templates on ${suite.server.url}, with --prune: 1 to create, 1 to replace, 1 to delete, 0 unchanged\n`);
    const markdown = await offline([plan, '--format', 'markdown', '--previews-url', url]);
    expect(markdown.stdout).toBe(relative(diffs.markdown.stdout));
    const json = await offline([plan, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(relative(diffs.json.stdout)));
  });

  it('--previews-url is a web address, and only for the Markdown plan (exit 2 otherwise)', async () => {
    const { plan } = await savedPlan();
    const script = await offline([plan, '--format', 'markdown', '--previews-url', 'javascript:alert(1)']);
    expect(script.code).toBe(2);
    expect(script.stderr).toContain('--previews-url javascript:alert(1) is not an http or https address');
    expect(script.stdout).toBe('');
    const text = await offline([plan, '--previews-url', 'https://github.com/agro/templates/actions/runs/7/artifacts/9']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('--previews-url goes with --format markdown');
  });

  it('refuses what is not a whole plan of this version (exit 2): a text that is not its sha256, another version, a FIFO, a file past 64 MiB', async () => {
    const { plan } = await savedPlan();
    const saved = readJson(plan) as { texts: Record<string, string> };
    const forged = join(tempDir(), 'forged.json');
    const [hash] = Object.keys(saved.texts);
    writeJson(forged, { ...saved, texts: { ...saved.texts, [hash!]: `${saved.texts[hash!]!} ` } });
    const damaged = await offline([forged]);
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/forged\.json is damaged: the text kept as [0-9a-f]{12}… does not have that sha256/);
    expect(damaged.stdout).toBe('');

    const older = join(tempDir(), 'older.json');
    writeJson(older, { ...saved, planVersion: 1 });
    const versioned = await offline([older]);
    expect(versioned.code).toBe(2);
    expect(versioned.stderr).toMatch(/a plan of version 1; this reportctl reads version 2/);

    const fifo = join(tempDir(), 'fifo.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const piped = await offline([fifo]);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/fifo\.json is not a regular file/);

    const huge = join(tempDir(), 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 64 * 1024 * 1024 + 1);
    const big = await offline([huge]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/huge\.json is 67108865 bytes; a plan is 67108864 at most/);
  });

  it('a plan keeps its texts up to its bound, the smallest first; a change past it is shown without its diff', async () => {
    const small = templateFileText(generalBody({ name: 'Small' }));
    const large = templateFileText(generalBody({ name: 'Large', selectedStatistics: ['totalPlants', 'plantsPerHectare', 'emergenceRate'] }));
    const plan = savedPlanOf(
      { create: [{ name: 'Small', file: 't/small.json', text: small }, { name: 'Large', file: 't/large.json', text: large }], replace: [], delete: [], unchanged: [] },
      { baseUrl: 'http://127.0.0.1:4747', account: '0'.repeat(64), dir: 't', prune: false, files: new Map([['small.json', small], ['large.json', large]]) },
      small.length + 10,
    );
    expect(Object.values(plan.texts)).toEqual([small]);
    const file = join(tempDir(), 'bounded.json');
    writeFileSync(file, planFileText(plan));
    const shown = await offline([file]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('+++ t/small.json (new: "Small")\n@@ -0,0 +1,');
    expect(shown.stdout).toContain('+++ t/large.json (new: "Large")\n# its text is not in the plan file (it keeps 16 MiB of text at most): `templates diff` shows it\n');
    expect(readFileSync(file, 'utf8')).not.toContain('plantsPerHectare');
  });
});
