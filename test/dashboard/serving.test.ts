import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { openStore } from '../../src/server/open-store.js';
import type { Store } from '../../src/server/store/index.js';
import { tempDir } from '../helpers/server.js';

// What the dashboard's routes serve from a directory of built files, in-process (the browser
// tests in dashboard.test.ts use the real build).
let store: Store | undefined;
afterEach(() => store?.close());

function appServing(dir: string) {
  store = openStore(':memory:');
  return buildApp({ store, readsPerMinute: 100, writesPerMinute: 100, dashboardDir: dir });
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
