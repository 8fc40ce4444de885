import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, type SpawnedCli } from '../helpers/cli.js';
import { api, tempDir } from '../helpers/server.js';
import { ISO_MS, listAll, type Page } from '../helpers/http.js';

/** `reportctl serve --demo` as a user first meets it (docs/decisions.md: "The embedded service"). */

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

describe('serve without --json', () => {
  it('prints exactly "reportctl serve listening on http://127.0.0.1:PORT" first, and serves there', async () => {
    const serve = await spawnCli(['serve', '--demo', '--port', '0', '--db', ':memory:']);
    try {
      const match = /^reportctl serve listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(serve.firstLine);
      expect(match, serve.firstLine).not.toBeNull();
      expect(Number(match![2])).toBeGreaterThan(0);
      const response = await fetch(`${match![1]}/api/v2/openapi.json`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    } finally {
      const exit = await serve.stop('SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
    }
  });

  it('SIGINT closes it too, without being killed by the signal', async () => {
    const serve = await spawnCli(['serve', '--port', '0', '--db', ':memory:']);
    expect(serve.firstLine).toMatch(/^reportctl serve listening on http:\/\/127\.0\.0\.1:\d+$/);
    const exit = await serve.stop('SIGINT');
    expect(exit.signal).toBeNull();
    expect([0, 130]).toContain(exit.code);
  });
});

describe('serve --demo --simulate keeps a run moving', () => {
  it('when every run has finished, a new demo run is enqueued and moves', async () => {
    const demo = await spawnCli(['serve', '--demo', '--simulate', '--step-seconds', '0.05', '--port', '0', '--db', ':memory:', '--json', '--no-access-log']);
    try {
      const line = JSON.parse(demo.firstLine) as DemoLine;
      const inFlight = ['pending', 'claimed', 'running'];
      const seen = new Map<string, Set<string>>();
      const deadline = Date.now() + 15_000;
      // Watch long enough for the seeded runs to end and live ones to go from start to finish.
      while (Date.now() < deadline) {
        const runs = await listAll<{ id: string; name: string; status: string }>(line, line.keys.owner, '/api/v2/queue-runs');
        for (const run of runs) if (run.name.endsWith('(live)')) seen.set(run.id, (seen.get(run.id) ?? new Set()).add(run.status));
        const finishedLive = [...seen.values()].filter((statuses) => statuses.has('completed')).length;
        if (finishedLive >= 2 && runs.some((run) => inFlight.includes(run.status))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const lifecycles = [...seen.values()];
      expect(lifecycles.filter((statuses) => statuses.has('completed')).length).toBeGreaterThanOrEqual(2);
      expect(lifecycles.some((statuses) => [...statuses].some((status) => inFlight.includes(status)))).toBe(true);
    } finally {
      await demo.stop('SIGKILL');
    }
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
        subUser: /sub-user key: +(rctl_\S+)/.exec(first.stdout())![1]!,
      };
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
