import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QueueRun } from '../../../src/contract/index.js';
import { demoRunPlans, type DemoRunPlan } from '../../../src/server/seed/demo.js';
import { ensureDemoAccount } from '../../../src/server/seed/demo-account.js';
import { openStore } from '../../../src/server/open-store.js';
import type { Store } from '../../../src/server/store/index.js';
import { spawnCli, type SpawnedCli } from '../../helpers/cli.js';
import { api, tempDir } from '../../helpers/server.js';
import { ISO_MS, listAll, type Page } from '../../helpers/http.js';

/** The demo account (src/server/seed/demo-account.ts) as `reportctl serve --demo` makes it and a user first meets it (docs/decisions.md: "The embedded service"). */

interface DemoLine {
  url: string;
  db: string;
  keys: { owner: string; subUser: string; accountId?: string };
}

describe('serve --demo --json', () => {
  let demo: SpawnedCli;
  let line: DemoLine;

  beforeAll(async () => {
    demo = await spawnCli(['serve', '--demo', '--port', '0', '--db', ':memory:', '--json']);
    line = JSON.parse(demo.firstLine) as DemoLine;
  });
  afterAll(async () => {
    if (demo) await demo.stop('SIGKILL');
  });

  it('prints one JSON object with url, db and the demo keys', () => {
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(line.url).port)).toBeGreaterThan(0);
    expect(line.db).toBe(':memory:');
    expect(typeof line.keys.owner).toBe('string');
    expect(typeof line.keys.subUser).toBe('string');
    expect(line.keys.owner).not.toBe(line.keys.subUser);
    // At least 32 bytes of entropy: 43+ characters of base64url (or 64 hex) beyond any prefix.
    for (const key of [line.keys.owner, line.keys.subUser]) expect(key.length).toBeGreaterThanOrEqual(43);
  });

  it('the owner key sees templates, queues and runs in several states', async () => {
    const templates = await api(line, 'GET', '/api/v2/templates', { key: line.keys.owner });
    expect(templates.status).toBe(200);
    const templatePage = templates.body as Page<{ id: string; createdAt: string; name: string }>;
    expect(templatePage.total).toBeGreaterThan(0);
    for (const template of templatePage.data) expect(template.createdAt).toMatch(ISO_MS);

    const queues = await api(line, 'GET', '/api/v2/queues', { key: line.keys.owner });
    expect(queues.status).toBe(200);
    expect((queues.body as Page<unknown>).total).toBeGreaterThan(0);

    const runs = await listAll<{ status: string; steps: unknown[] }>(line, line.keys.owner, '/api/v2/queue-runs');
    expect(runs.length).toBeGreaterThan(0);
    const statuses = new Set(runs.map((run) => run.status));
    expect(statuses.size).toBeGreaterThanOrEqual(3);
    // Finished and unfinished runs both.
    expect([...statuses].some((status) => ['completed', 'failed', 'cancelled'].includes(status))).toBe(true);
    expect([...statuses].some((status) => ['pending', 'claimed', 'running'].includes(status))).toBe(true);

    const analyses = await api(line, 'GET', '/api/v2/analyses', { key: line.keys.owner });
    expect((analyses.body as Page<unknown>).total).toBeGreaterThan(0);
  });

  it('the sub-user key sees exactly what the owner sees', async () => {
    for (const path of ['/api/v2/templates', '/api/v2/queues', '/api/v2/queue-runs', '/api/v2/analyses']) {
      const [asOwner, asSub] = await Promise.all([
        api(line, 'GET', `${path}?limit=100`, { key: line.keys.owner }),
        api(line, 'GET', `${path}?limit=100`, { key: line.keys.subUser }),
      ]);
      expect(asSub.status, path).toBe(200);
      expect(asSub.body, path).toEqual(asOwner.body);
    }
  });

  it('every demo template can be read back and PUT back unchanged (it is a valid template)', async () => {
    const templates = await listAll<{ id: string; updatedAt: string }>(line, line.keys.owner, '/api/v2/templates');
    for (const template of templates) {
      const one = await api(line, 'GET', `/api/v2/templates/${template.id}`, { key: line.keys.owner });
      expect(one.body).toEqual(template);
      const put = await api(line, 'PUT', `/api/v2/templates/${template.id}`, { key: line.keys.subUser, body: template });
      expect(put.status, put.text).toBe(200);
      const { updatedAt: _before, ...sameFields } = template;
      expect(put.body).toMatchObject(sameFields);
    }
  });

  it('SIGTERM closes it cleanly with exit code 0', async () => {
    const exit = await demo.stop('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    await expect(fetch(`${line.url}/api/v2/openapi.json`)).rejects.toThrow();
  });
});

describe('serve --demo keys (issue 17, item 5)', () => {
  it('are printed on stdout only, and a new --demo start revokes the previous ones and says so', async () => {
    const db = join(tempDir(), 'service.db');
    // With the access log on: stderr is the stream that gets shipped to log collectors.
    const first = await spawnCli(['serve', '--demo', '--port', '0', '--db', db]);
    let oldKeys: { owner: string; subUser: string };
    let url: string;
    try {
      url = /listening on (\S+)/.exec(first.firstLine)![1]!;
      await expect.poll(() => first.stdout(), { timeout: 5000 }).toMatch(/sub-user key: +rctl_/);
      oldKeys = {
        owner: /owner key: +(rctl_\S+)/.exec(first.stdout())![1]!,
        subUser: /sub-user key: +(rctl_\S+)/.exec(first.stdout())![1]! };
      expect((await api({ url }, 'GET', '/api/v2/templates', { key: oldKeys.owner })).status).toBe(200);
      await expect.poll(() => first.stderr(), { timeout: 5000 }).toMatch(/GET \/api\/v2\/templates 200/);
      expect(first.stderr()).toContain("curl -H 'apiKey: <owner key>'");
      for (const key of Object.values(oldKeys)) {
        expect(first.stderr()).not.toContain(key);
        expect(first.stderr()).not.toContain(key.slice(10));
      }
    } finally {
      await first.stop('SIGTERM');
    }

    const second = await spawnCli(['serve', '--demo', '--port', '0', '--db', db, '--json']);
    try {
      const line = JSON.parse(second.firstLine) as DemoLine;
      await expect.poll(() => second.stderr(), { timeout: 5000 }).toMatch(/revoked the demo account's 2 earlier keys/);
      for (const key of Object.values(oldKeys)) {
        const answer = await api(line, 'GET', '/api/v2/templates', { key });
        expect(answer.status).toBe(401);
        expect((answer.body as { error: string }).error).toBe('API_KEY_INVALID');
        expect(second.stderr()).not.toContain(key.slice(10));
      }
      for (const key of [line.keys.owner, line.keys.subUser]) {
        expect((await api(line, 'GET', '/api/v2/templates', { key })).status).toBe(200);
        expect(second.stderr()).not.toContain(key.slice(10));
      }
    } finally {
      await second.stop('SIGTERM');
    }
  });
});

/** The step statuses a run driven to its plan's status shows, by the queue-run life cycle. */
function stepStatusesOf(plan: DemoRunPlan, count: number): string[] {
  const done = plan.targetStatus === 'completed' ? count : plan.targetStatus === 'failed' ? plan.failAtStep! - 1 : (plan.completedSteps ?? 0);
  const current = plan.targetStatus === 'running' ? ['running'] : plan.targetStatus === 'failed' ? ['failed'] : [];
  // A failed or cancelled run skips what it did not reach; pending and claimed ones have not started.
  const rest = plan.targetStatus === 'failed' || plan.targetStatus === 'cancelled' ? 'skipped' : 'pending';
  return [...Array<string>(done).fill('completed'), ...current, ...Array<string>(count - done - current.length).fill(rest)];
}

describe('the demo account seeded into a real store', () => {
  let store: Store;
  let runs: QueueRun[];

  beforeAll(() => {
    store = openStore(':memory:');
    const { accountId } = ensureDemoAccount(store);
    runs = store.queueRuns.list(accountId, { page: 1, limit: 100 }).data;
  });
  afterAll(() => store.close());

  it('has one run per plan', () => {
    expect(runs.map((run) => run.name).sort()).toEqual(demoRunPlans.map((plan) => plan.name).sort());
  });

  it.each(demoRunPlans.map((plan) => [plan.name, plan] as const))('%s ends in its plan’s status, its steps where the plan puts them', (name, plan) => {
    const run = runs.find((candidate) => candidate.name === name)!;
    expect(run.status).toBe(plan.targetStatus);
    expect(run.steps.map((step) => step.status)).toEqual(stepStatusesOf(plan, run.steps.length));
  });
});
