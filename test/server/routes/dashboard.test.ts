import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../../src/server/app.js';
import { DashboardCodes } from '../../../src/server/dashboard-codes.js';
import { openStore } from '../../../src/server/open-store.js';
import type { Store } from '../../../src/server/store/index.js';
import { tempDir } from '../../helpers/server.js';

// What the dashboard's routes serve from a directory of built files, in-process (the browser
// tests in test/dashboard/dashboard.test.ts use the real build).
let store: Store | undefined;
afterEach(() => store?.close());

function appServing(dir: string, dashboardCodes?: DashboardCodes) {
  store = openStore(':memory:');
  return buildApp({ store, readsPerMinute: 100, writesPerMinute: 100, dashboardDir: dir, ...(dashboardCodes ? { dashboardCodes } : {}) });
}

describe('dashboard files', () => {
  it('a copy without the built page answers / with a 404 that says to build it', async () => {
    const app = appServing(tempDir());
    const answer = await app.inject({ method: 'GET', url: '/' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: 'NOT_FOUND', message: expect.stringContaining('npm run build') });
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves the page and files of the known types only, never the page under /dashboard/', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(join(dir, 'main-ABC.js'), 'export {};');
    writeFileSync(join(dir, 'notes.txt'), 'not for the browser');
    const app = appServing(dir);
    expect((await app.inject({ method: 'GET', url: '/' })).body).toBe('<!doctype html><title>t</title>');
    expect((await app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
    const script = await app.inject({ method: 'GET', url: '/dashboard/main-ABC.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const url of ['/dashboard/notes.txt', '/dashboard/index.html', '/dashboard/..%2Findex.html', '/dashboard/..%2F..%2Fpackage.json']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});

describe('the one-time code of the dashboard URL', () => {
  let clock = Date.parse('2026-05-01T10:00:00Z');
  const codes = new DashboardCodes(() => clock);
  const signIn = (app: ReturnType<typeof appServing>, code: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: { 'content-type': contentType }, payload: contentType === 'application/json' ? JSON.stringify({ code }) : code });
  const refusal = {
    error: 'VALIDATION_FAILED',
    message: 'Sign-in failed validation',
    issues: [{ path: 'code', message: 'The code is used, expired or unknown: each works once, within 5 minutes' }],
  };

  it('is traded for its key once, in a POST answered uncacheable; used again it is refused', async () => {
    const app = appServing(tempDir(), codes);
    const code = codes.issue('rctl_owner-key');
    const first = await signIn(app, code);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ apiKey: 'rctl_owner-key' });
    expect(first.headers['cache-control']).toBe('no-store');
    const again = await signIn(app, code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(refusal);
    expect(again.body).not.toContain('rctl_owner-key');
  });

  it('expires after 5 minutes', async () => {
    const app = appServing(tempDir(), codes);
    const inTime = codes.issue('rctl_in-time');
    const late = codes.issue('rctl_late');
    clock += 5 * 60_000 - 1;
    expect((await signIn(app, inTime)).json()).toEqual({ apiKey: 'rctl_in-time' });
    clock += 1;
    const expired = await signIn(app, late);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual(refusal);
  });

  it('only through a JSON POST: never from a URL, nor from a cross-site form', async () => {
    const app = appServing(tempDir(), codes);
    const code = codes.issue('rctl_owner-key');
    for (const url of [`/dashboard/sign-in?code=${code}`, `/?code=${code}`]) {
      expect((await app.inject({ method: 'GET', url })).body, url).not.toContain('rctl_owner-key');
    }
    const form = await signIn(app, `code=${code}`, 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(415);
    expect((await signIn(app, 'unknown-code')).statusCode).toBe(400);
    // None of that spent it.
    expect((await signIn(app, code)).json()).toEqual({ apiKey: 'rctl_owner-key' });
  });
});
