// Across modules: the dashboard page (src/dashboard) in a real browser against a real serve.
// The dashboard in a real browser (Debian's chromium, driven by puppeteer-core) against a real
// `reportctl serve --demo` on a free port. One browser for the whole file; a fresh tab (and so
// a fresh sessionStorage) per test. Admin steps are the admin operations called on the same
// database file in this process. Screenshots of each view at both widths go to
// test/artifacts/ for a person to look at.
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { checkFormula, evaluate } from '../../src/formula/index.js';
import { advanceRun, createQueue, enqueueRun } from '../../src/admin/operations.js';
import { openStore } from '../../src/server/open-store.js';
import { sqliteDriver } from '../../src/server/store/driver.js';
import { renderTemplateSvg } from '../../src/preview/index.js';
import { spawnCli } from '../helpers/cli.js';
import { api, startServe, tempDir, type TestServer } from '../helpers/server.js';
import { minimalBody, readCatalogs, type CatalogsOverHttp, type Page as ListPage } from '../helpers/http.js';
import { hasProgram, testWith } from '../helpers/programs.js';

const { Database } = sqliteDriver();
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const WIDTHS = { desktop: 1280, phone: 390 } as const;
const BROWSER_TEST_MS = 90_000;

interface DemoLine {
  url: string;
  dashboard: string;
  keys: { accountId: string; owner: string; subUser: string };
}

interface OpenedPage {
  page: Page;
  /** Every URL the page asked for, in order. */
  requests: { url: string; headers: Record<string, string> }[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

let server: TestServer;
let demo: DemoLine;
let catalogs: CatalogsOverHttp;
let browser: Browser | undefined;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  server = await startServe({ extraArgs: ['--demo'] });
  demo = JSON.parse(server.process.firstLine) as DemoLine;
  catalogs = await readCatalogs(server, demo.keys.owner);
  if (!hasProgram('chromium')) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const { launch } = await import('puppeteer-core');
  browser = await launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in a container: no user namespaces for chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
});

afterEach(async () => {
  for (const { page } of opened.splice(0)) await page.close().catch(() => {});
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const chromiumPath = () => spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();

async function openPage(width: number = WIDTHS.desktop): Promise<OpenedPage> {
  const page = await browser!.newPage();
  await page.setViewport({ width, height: 900 });
  const result: OpenedPage = { page, requests: [], errors: [] };
  page.on('request', (request) => result.requests.push({ url: request.url(), headers: request.headers() }));
  page.on('console', (entry) => {
    if (entry.type() === 'error') result.errors.push(entry.text());
  });
  page.on('pageerror', (error) => result.errors.push(String(error)));
  opened.push(result);
  return result;
}

/** Types the key into the page's form, as a person would. */
async function enterKey(page: Page, key: string): Promise<void> {
  await page.waitForSelector('#api-key');
  await page.type('#api-key', key);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#nav:not([hidden])');
}

async function screenshot(page: Page, view: string): Promise<void> {
  const width = page.viewport()!.width;
  await page.screenshot({ path: `${ARTIFACTS}dashboard-${view}-${width}.png`, fullPage: true });
}

/** At both widths: a screenshot, and nothing wider than the window (readable without scrolling sideways). */
async function atBothWidths(page: Page, view: string): Promise<void> {
  for (const width of Object.values(WIDTHS)) {
    await page.setViewport({ width, height: 900 });
    const overflow = await page.evaluate('document.documentElement.scrollWidth');
    expect(overflow, `${view} at ${width} px`).toBeLessThanOrEqual(width);
    await screenshot(page, view);
  }
}

const apiRequests = (requests: OpenedPage['requests']) => requests.filter((request) => new URL(request.url).pathname.startsWith('/api/'));

/** What goes to the server of a request's URL: a browser never sends the #fragment. */
const sent = (url: string) => url.split('#')[0]!;

function expectCleanTraffic(result: OpenedPage, key: string): void {
  for (const request of result.requests) expect(sent(request.url)).not.toContain(key);
  for (const request of apiRequests(result.requests)) {
    expect(new URL(request.url).pathname).toMatch(/^\/api\/v2\//);
    expect(request.headers.apikey).toBe(key);
  }
  expect(result.errors).toEqual([]);
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '');

describe('serving the page', () => {
  it('GET / is the page, with a strict Content-Security-Policy, nosniff and no key needed', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const page = await response.text();
    // No inline script or style: everything the page runs is a file of its own.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|style=/);
    // Outside the API: no rate-limit bucket spent on it.
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('serves its script and stylesheet by content-hashed names, cached for good, and answers a matching ETag with 304', async () => {
    const page = await (await fetch(`${server.url}/`)).text();
    const assets = [...page.matchAll(/(?:src|href)="(\/dashboard\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.map((path) => path.replace(/-[A-Z0-9]+\./, '-HASH.'))).toEqual(['/dashboard/style-HASH.css', '/dashboard/main-HASH.js']);
    for (const path of assets) {
      const response = await fetch(server.url + path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(path.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(response.headers.get('cache-control')).toContain('immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const again = await fetch(server.url + path, { headers: { 'if-none-match': response.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    // The bundle is built for the browser: none of Node's modules.
    const script = await (await fetch(server.url + assets[1]!)).text();
    expect(script).not.toMatch(/\bnode:[a-z]/);
  });

  it('an unknown dashboard file is a 404, and the API keeps its own 404 and 405 answers', async () => {
    const missing = await fetch(`${server.url}/dashboard/nothing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('NOT_FOUND');
    expect((await api(server, 'GET', '/api/v2/nothing-here', { key: demo.keys.owner })).status).toBe(404);
    expect((await api(server, 'POST', '/', { key: demo.keys.owner, body: {} })).status).toBe(404);
    // Only / itself is the page: // (which Fastify routes there too) is the API's 404.
    const doubled = await api(server, 'GET', '//', { key: demo.keys.owner });
    expect(doubled.status).toBe(404);
    expect(doubled.headers.get('x-ratelimit-limit')).not.toBeNull();
    const patch = await api(server, 'PATCH', '/api/v2/templates', { key: demo.keys.owner, body: {} });
    expect(patch.status).toBe(405);
    expect((await api(server, 'GET', '/api/v2/templates')).status).toBe(401);
  });

  it('serve --demo gives the dashboard URL with a one-time code, never the key, on stdout only; serve without --demo names the page on stderr', async () => {
    expect(demo.dashboard).toMatch(new RegExp(`^${demo.url.replace(/\./g, '\\.')}/#code=[A-Za-z0-9_-]{22}$`));
    expect(server.process.stderr()).not.toContain(demo.keys.owner);
    // Both services at once: neither waits for the other to start.
    const [plain, keyless] = await Promise.all([
      spawnCli(['serve', '--port', '0', '--db', ':memory:', '--demo']),
      spawnCli(['serve', '--port', '0', '--db', ':memory:']),
    ]);
    try {
      const url = /listening on (\S+)/.exec(plain.firstLine)![1]!;
      await expect.poll(() => plain.stdout(), { timeout: 10_000 }).toMatch(/^dashboard: +\S+$/m);
      const owner = /owner key: +(\S+)/.exec(plain.stdout())![1]!;
      const dashboard = /^dashboard: +(\S+)$/m.exec(plain.stdout())![1]!;
      expect(dashboard.startsWith(`${url}/#code=`)).toBe(true);
      expect(dashboard).not.toContain(owner);
      await expect.poll(() => plain.stderr(), { timeout: 10_000 }).toContain('open the dashboard URL above in a browser within 5 minutes');
      expect(plain.stderr()).not.toContain(owner);
      const keylessUrl = /listening on (\S+)/.exec(keyless.firstLine)![1]!;
      await expect.poll(() => keyless.stderr(), { timeout: 10_000 }).toContain(`dashboard: ${keylessUrl}/ (it asks for an API key)`);
    } finally {
      await Promise.all([plain.stop(), keyless.stop()]);
    }
  });
});

describe('the dashboard in a browser', () => {
  testWith(
    'chromium',
    'without a key it shows only the key form and asks the service nothing',
    async () => {
      const result = await openPage();
      const response = await result.page.goto(`${server.url}/`, { waitUntil: 'networkidle0' });
      expect(response!.headers()['content-security-policy']).toContain("default-src 'self'");
      await result.page.waitForSelector('#api-key');
      expect(await result.page.$eval('#nav', (element) => element.hasAttribute('hidden'))).toBe(true);
      expect(await result.page.$$('.card, .run, table')).toHaveLength(0);
      expect(apiRequests(result.requests)).toEqual([]);
      expect(result.errors).toEqual([]);
      await atBothWidths(result.page, 'key');
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'the URL serve --demo prints signs in once: the key reaches sessionStorage and the apiKey header, and no URL the browser loaded, nor its History database, holds it',
    async () => {
      // A browser of its own, with a profile on disk (it keeps history), and a serve of its own:
      // its code is spent here.
      const profile = tempDir('reportctl-chromium-');
      const { launch } = await import('puppeteer-core');
      const [own, withHistory] = await Promise.all([
        startServe({ extraArgs: ['--demo'] }),
        launch({ executablePath: chromiumPath(), headless: true, userDataDir: profile, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] }),
      ]);
      const line = JSON.parse(own.process.firstLine) as DemoLine;
      const loaded: string[] = [];
      try {
        const watch = (page: Page) => {
          page.on('request', (request) => loaded.push(request.url()));
          page.on('framenavigated', (frame) => loaded.push(frame.url()));
        };
        const page = await withHistory.newPage();
        watch(page);
        await page.goto(line.dashboard);
        await page.waitForSelector('.card');
        expect(await page.evaluate('sessionStorage.getItem("reportctl.apiKey")')).toBe(line.keys.owner);
        expect(page.url()).toBe(`${line.url}/#/templates`);
        // The same URL again, in another tab: the code is spent, and the page asks for the key.
        const again = await withHistory.newPage();
        watch(again);
        await again.goto(line.dashboard);
        await again.waitForSelector('.message.error');
        expect(await text(again, '.message.error')).toContain('already used or has expired');
        expect(await again.$('#api-key')).not.toBeNull();
        expect(await again.evaluate('sessionStorage.getItem("reportctl.apiKey")')).toBeNull();
        // Nor does it trade a code from outside the page.
        const code = new URL(line.dashboard).hash.slice('#code='.length);
        const reused = await fetch(`${line.url}/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
        expect(reused.status).toBe(400);
      } finally {
        await withHistory.close();
        await own.stop();
      }
      expect(loaded.some((url) => url.includes('#code='))).toBe(true);
      for (const url of loaded) expect(url).not.toContain(line.keys.owner);
      // What the browser keeps once closed: the URLs it visited (with the spent code), no key.
      const history = new Database(join(profile, 'Default', 'History'), { readonly: true });
      const visited = history.prepare<[], { url: string }>('SELECT url FROM urls').all().map((row) => row.url);
      history.close();
      expect(visited).toContain(line.dashboard);
      for (const url of visited) expect(url).not.toContain(line.keys.owner);
      for (const name of readdirSync(join(profile, 'Default')).filter((file) => file.startsWith('History'))) {
        expect(readFileSync(join(profile, 'Default', name)).includes(line.keys.owner), name).toBe(false);
      }
    },
    // A second browser and a second serve to start.
    2 * BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'a page that opened the dashboard cannot swap its key, and a key or code in a URL never replaces the stored one',
    async () => {
      const opener = await openPage();
      await opener.page.goto('about:blank');
      await opener.page.evaluate(`window.dashboard = window.open(${JSON.stringify(`${server.url}/`)})`);
      const target = await browser!.waitForTarget((candidate) => candidate.url().startsWith(`${server.url}/`));
      const dashboard: OpenedPage = { page: (await target.page())!, requests: [], errors: [] };
      opened.push(dashboard);
      dashboard.page.on('request', (request) => dashboard.requests.push({ url: request.url(), headers: request.headers() }));
      await enterKey(dashboard.page, demo.keys.owner);
      await dashboard.page.waitForSelector('.card');
      const stored = () => dashboard.page.evaluate('sessionStorage.getItem("reportctl.apiKey")');
      // The opener points the dashboard at another key, then at a code: nothing changes.
      for (const fragment of [`#key=${demo.keys.subUser}`, '#code=AAAAAAAAAAAAAAAAAAAAAA']) {
        await opener.page.evaluate(`try { window.dashboard.location = ${JSON.stringify(`${server.url}/${fragment}`)} } catch {}`);
      }
      // The same from within the page (a link, a pasted URL).
      for (const fragment of [`#key=${demo.keys.subUser}`, '#code=AAAAAAAAAAAAAAAAAAAAAA']) {
        await dashboard.page.evaluate(`location.hash = ${JSON.stringify(fragment)}`);
        await dashboard.page.waitForFunction(`!location.hash.includes('=')`);
      }
      await dashboard.page.waitForSelector('.card');
      expect(await stored()).toBe(demo.keys.owner);
      expect(dashboard.requests.filter((request) => request.url.endsWith('/dashboard/sign-in'))).toEqual([]);
      const lastApiRequest = apiRequests(dashboard.requests).at(-1)!;
      expect(lastApiRequest.headers.apikey).toBe(demo.keys.owner);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'a key the service refuses is dropped and the page asks again',
    async () => {
      const result = await openPage();
      await result.page.goto(`${server.url}/`);
      await result.page.waitForSelector('#api-key');
      await result.page.type('#api-key', 'rctl_not-a-key');
      await result.page.keyboard.press('Enter');
      await result.page.waitForSelector('.message.error');
      expect(await text(result.page, '.message.error')).toContain('refused the key');
      expect(await result.page.$('#api-key')).not.toBeNull();
      expect(await result.page.$eval('#nav', (element) => element.hasAttribute('hidden'))).toBe(true);
      expect(await result.page.evaluate('sessionStorage.getItem("reportctl.apiKey")')).toBeNull();
      for (const request of result.requests) expect(sent(request.url)).not.toContain('rctl_not-a-key');
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'templates: a template created through the API is listed with a thumbnail, filters narrow the list, and its page shows both previews, its JSON, duplicate and delete',
    async () => {
      const name = `Dashboard <b>lot</b> ${Date.now()}`;
      const created = await api(server, 'POST', '/api/v2/templates', {
        key: demo.keys.owner,
        body: {
          ...minimalBody(catalogs, { name, analysisType: 'path' }),
          paperSize: 'a4',
          layouts: {
            portrait: { elements: [{ type: 'map', x: 0.05, y: 0.1, width: 0.9, height: 0.6 }, { type: 'title', x: 0.05, y: 0, width: 0.9, height: 0.08 }] },
            landscape: { elements: [{ type: 'map', x: 0, y: 0, width: 0.7, height: 1 }, { type: 'legend', x: 0.6, y: 0.1, width: 0.35, height: 0.3 }] },
          },
        },
      });
      expect(created.status).toBe(201);
      const template = created.body as { id: string; name: string };

      const result = await openPage();
      await result.page.goto(`${server.url}/`);
      await enterKey(result.page, demo.keys.owner);
      // The filter as in the API's list query: only path templates, so the new one is on page 1.
      await result.page.select('select[name="analysisType"]', 'path');
      await result.page.click('.filters button[type="submit"]');
      const listed = await api(server, 'GET', '/api/v2/templates?analysisType=path&limit=20', { key: demo.keys.owner });
      const expected = (listed.body as ListPage<unknown>).data.length;
      // The new template is newest, so it is on the unfiltered first page too: wait for the
      // filtered list itself (as many cards as the API lists, every one a path template).
      await result.page.waitForFunction(
        `[...document.querySelectorAll('.card p.meta:first-of-type')].map((kind) => kind.textContent).filter((kind) => kind.startsWith('path · ')).length === ${expected} && document.querySelectorAll('.card').length === ${expected}`,
        { timeout: 10_000 },
      );
      await result.page.waitForSelector(`.card a[href="#/templates/${template.id}"]`);
      const cards = await result.page.$$eval('.card', (elements) => elements.map((element) => element.textContent ?? ''));
      expect(cards).toHaveLength(expected);
      const kinds = await result.page.$$eval('.card p.meta:first-of-type', (elements) => elements.map((element) => element.textContent ?? ''));
      expect(kinds).toHaveLength(cards.length);
      for (const kind of kinds) expect(kind).toMatch(/^path · /);
      // The name is text, never markup.
      expect(cards.some((card) => card.includes(name))).toBe(true);
      expect(await result.page.$$('.card b')).toHaveLength(0);
      expect(await result.page.$eval(`a[href="#/templates/${template.id}"]`, (link) => link.closest('.card')!.querySelector('img')!.getAttribute('src'))).toBe(
        `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderTemplateSvg(template, { thumbnail: true }).svg)}`,
      );
      expect(apiRequests(result.requests).some((request) => new URL(request.url).searchParams.get('analysisType') === 'path')).toBe(true);
      await atBothWidths(result.page, 'templates');

      // Open it from the keyboard: Tab to its link, Enter.
      await result.page.setViewport({ width: WIDTHS.desktop, height: 900 });
      let focused = '';
      for (let i = 0; i < 80 && focused !== `#/templates/${template.id}`; i++) {
        await result.page.keyboard.press('Tab');
        focused = String(await result.page.evaluate('document.activeElement?.getAttribute("href") ?? ""'));
      }
      expect(focused).toBe(`#/templates/${template.id}`);
      await result.page.keyboard.press('Enter');
      await result.page.waitForSelector('.preview.landscape img');
      expect(await text(result.page, 'h2')).toBe(name);
      for (const orientation of ['portrait', 'landscape'] as const) {
        const src = await result.page.$eval(`.preview.${orientation} img`, (image) => image.getAttribute('src'));
        expect(decodeURIComponent(src!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''))).toBe(renderTemplateSvg(created.body, { orientation }).svg);
        // Drawn, not broken: the browser decoded the SVG.
        expect(await result.page.$eval(`.preview.${orientation} img`, (image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
      }
      expect(JSON.parse(await text(result.page, 'pre.json'))).toEqual(created.body);
      await atBothWidths(result.page, 'template');

      // Duplicate: a new template through the API, and the page goes to it.
      await result.page.setViewport({ width: WIDTHS.desktop, height: 900 });
      const [duplicateButton] = await result.page.$$('xpath/.//button[normalize-space()="Duplicate"]');
      await duplicateButton!.click();
      await result.page.waitForFunction(`location.hash.startsWith('#/templates/') && location.hash !== ${JSON.stringify(`#/templates/${template.id}`)}`);
      const copyId = decodeURIComponent(String(await result.page.evaluate('location.hash.slice("#/templates/".length)')));
      const copy = await api(server, 'GET', `/api/v2/templates/${copyId}`, { key: demo.keys.owner });
      expect(copy.status).toBe(200);
      expect(copy.body).toMatchObject({ name: `${name} (copy)`, layouts: (created.body as { layouts: unknown }).layouts, analysisType: 'path' });

      // Delete the copy, after the second confirmation.
      await result.page.waitForSelector('.preview.portrait img');
      const [deleteButton] = await result.page.$$('xpath/.//button[normalize-space()="Delete…"]');
      await deleteButton!.click();
      await result.page.click('#confirm-delete');
      await result.page.waitForFunction('location.hash === "#/templates"');
      expect((await api(server, 'GET', `/api/v2/templates/${copyId}`, { key: demo.keys.owner })).status).toBe(404);
      expect((await api(server, 'GET', `/api/v2/templates/${template.id}`, { key: demo.keys.owner })).status).toBe(200);
      expectCleanTraffic(result, demo.keys.owner);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'queue runs: a run advanced by `admin queue-runs advance` moves on the page by itself, and its timeline names each analysis',
    async () => {
      // `admin queues create`, `queue-runs enqueue` and `advance` as functions, on the served file.
      const store = openStore(server.db);
      onTestFinished(() => store.close());
      const queue = createQueue(store, demo.keys.accountId, 'Dashboard lots', ['lot-dash-1:counting', 'lot-dash-2:replanting']);
      const run = enqueueRun(store, queue.id, {});
      const result = await openPage();
      // The page's timers run ten times faster (its 2 s poll takes 0.2 s); it still polls by itself.
      await result.page.evaluateOnNewDocument(`{ const real = window.setTimeout; window.setTimeout = (handler, ms, ...rest) => real(handler, (ms ?? 0) / 10, ...rest); }`);
      await result.page.goto(`${server.url}/#/queue-runs`);
      await enterKey(result.page, demo.keys.owner);
      const card = `.run[data-run-id="${run.id}"]`;
      await result.page.waitForSelector(card);
      expect(await text(result.page, `${card} .steps-done`)).toBe('0/2 steps done');
      // Focused and clicked in one step in the page: its polling redraws the card every 0.2 s,
      // which would detach a handle taken first (puppeteer's click scrolls to it, then clicks).
      await result.page.evaluate(`(() => { const button = document.querySelector(${JSON.stringify(`${card} button[aria-controls]`)}); button.focus(); button.click(); })()`);
      await result.page.waitForSelector(`${card} .timeline`);
      for (let advanced = 0; advanced < 10; advanced++) {
        const printed = advanceRun(store, run.id);
        const shown = `${printed.steps.filter((step) => step.status === 'completed').length}/2 steps done ${printed.status}`;
        // Nobody touches the page: its polling shows the change.
        await result.page.waitForFunction(
          `(() => { const card = document.querySelector(${JSON.stringify(card)}); return card && card.querySelector('.steps-done').textContent + ' ' + card.querySelector('.badge').textContent === ${JSON.stringify(shown)}; })()`,
          { timeout: 20_000 },
        );
        if (['completed', 'failed', 'cancelled'].includes(printed.status)) break;
      }
      const runs = await api(server, 'GET', '/api/v2/queue-runs?limit=100', { key: demo.keys.owner });
      const final = (runs.body as ListPage<{ id: string; status: string; steps: { analysisId?: string | null }[] }>).data.find((candidate) => candidate.id === run.id)!;
      expect(final.status).toBe('completed');
      const timeline = await text(result.page, `${card} .timeline`);
      for (const step of final.steps) expect(timeline).toContain(step.analysisId!);
      // The timeline stayed open across the refreshes, and the keyboard's place with it.
      expect(await result.page.$eval(`${card} button[aria-controls]`, (button) => button.getAttribute('aria-expanded'))).toBe('true');
      expect(await result.page.evaluate('document.activeElement?.dataset.focusKey')).toBe(`toggle-${run.id}`);
      await atBothWidths(result.page, 'queue-runs');
      // Polling goes through the rate-limit headers like any client: every request was a plain list read.
      for (const request of apiRequests(result.requests)) expect(new URL(request.url).pathname).toBe('/api/v2/queue-runs');
      expectCleanTraffic(result, demo.keys.owner);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'catalogs: report types, statistics and vegetation-index defaults as the API serves them, each colour scale drawn',
    async () => {
      const result = await openPage();
      await result.page.goto(`${server.url}/#/catalogs`);
      await enterKey(result.page, demo.keys.owner);
      await result.page.waitForSelector('#vegetation-index-defaults');
      const reportTypes = await text(result.page, '#report-types');
      for (const entries of Object.values(catalogs.reportTypes)) for (const entry of entries) expect(reportTypes).toContain(entry.key);
      const statistics = await text(result.page, '#statistics');
      for (const names of Object.values(catalogs.statistics)) for (const name of names) expect(statistics).toContain(name);
      const scales = await result.page.$$eval('.scale', (items) => items.map((item) => item.querySelector('.scale-name')!.textContent));
      expect(scales).toEqual(Object.keys(catalogs.viDefaults.colorScales));
      const drawn = await result.page.$$eval('.scale img', (images) => images.map((image) => (image as unknown as { naturalWidth: number }).naturalWidth));
      for (const width of drawn) expect(width).toBeGreaterThan(0);
      await atBothWidths(result.page, 'catalogs');
      expectCleanTraffic(result, demo.keys.owner);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'formula playground: the same verdicts, error spans, usesL and values as the offline checker, with no request',
    async () => {
      const result = await openPage();
      await result.page.goto(`${server.url}/#/formula`);
      await enterKey(result.page, demo.keys.owner);
      await result.page.waitForSelector('#formula-input');
      // Move one slider from the keyboard: NIR up by five steps.
      await result.page.focus('#band-NIR');
      for (let i = 0; i < 5; i++) await result.page.keyboard.press('ArrowRight');
      const values: Record<string, number> = { eps: 1e-9 };
      for (const band of ['R', 'G', 'B', 'RE', 'NIR', 'L']) values[band] = Number(await result.page.$eval(`#band-${band}`, (slider) => (slider as unknown as { value: string }).value));
      const formulas = [
        '(NIR - R) / (NIR + R + eps)',
        '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
        'sqrt(abs(NIR - RE)) + G * 2',
        'NIR / R',
        'nir - R',
        '(NIR - R',
        'NIR ^ 2',
        '',
        'L * sqrt(R, G)',
        '(NIR - R) / (NIR + R)',
      ];
      for (const formula of formulas) {
        await result.page.click('#formula-input', { count: 3 });
        await result.page.keyboard.press('Backspace');
        if (formula !== '') await result.page.type('#formula-input', formula);
        const check = checkFormula(formula);
        expect(await text(result.page, '#formula-verdict'), formula).toBe(check.valid ? 'valid' : 'invalid');
        expect(await text(result.page, '#formula-uses-l'), formula).toBe(check.usesL ? 'yes' : 'no');
        const messages = await result.page.$$eval('#formula-errors li', (items) => items.map((item) => item.textContent ?? ''));
        expect(messages.length, formula).toBe(check.errors.length);
        check.errors.forEach((error, index) => expect(messages[index]).toContain(error.message));
        // The formula as typed, with the errors' spans underlined.
        expect(await text(result.page, '#formula-source'), formula).toBe(formula);
        const underlined = await result.page.$$eval('#formula-source mark', (marks) => marks.map((mark) => mark.textContent ?? ''));
        const spans = check.errors.filter((error) => error.length > 0).map((error) => formula.slice(error.offset, error.offset + error.length));
        for (const span of underlined) expect(spans, formula).toContain(span);
        expect(underlined.length > 0, formula).toBe(spans.length > 0);
        expect(await text(result.page, '#formula-value'), formula).toBe(check.valid ? String(evaluate(check.ast!, values)) : '—');
      }
      await atBothWidths(result.page, 'formula');
      expect(apiRequests(result.requests)).toEqual([]);
      expect(result.errors).toEqual([]);
    },
    BROWSER_TEST_MS,
  );
  testWith(
    'chromium',
    'a list says it is loading until the answer comes, then shows the data or the error',
    async () => {
      const result = await openPage();
      // Answers of the lists are held until the test lets them go.
      const held: HTTPRequest[] = [];
      const lists = new Set(['/api/v2/templates', '/api/v2/queue-runs']);
      await result.page.setRequestInterception(true);
      result.page.on('request', (request) => {
        if (lists.has(new URL(request.url()).pathname)) held.push(request);
        else void request.continue();
      });
      const loading = (selector: string) => result.page.waitForFunction(`document.querySelector(${JSON.stringify(selector)})?.textContent?.startsWith('Loading')`);
      await result.page.goto(`${server.url}/`);
      await enterKey(result.page, demo.keys.owner);
      await loading('.results');
      expect(await text(result.page, '.results')).toBe('Loading templates…');
      await held.shift()!.continue();
      await result.page.waitForSelector('.results .card');
      // The next answer is an error: the loading line gives way to it.
      await result.page.click('.filters button[type=submit]');
      await loading('.results');
      await expect.poll(() => held.length).toBe(1);
      await held.shift()!.respond({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'UNAVAILABLE', message: 'try later' }) });
      await result.page.waitForSelector('.results .message.error');
      expect(await text(result.page, '.results')).toBe('Could not list templates: try later');
      await result.page.evaluate(`location.hash = '#/queue-runs'`);
      await loading('.runs');
      expect(await text(result.page, '.runs')).toBe('Loading queue runs…');
      await expect.poll(() => held.length).toBe(1);
      await held.shift()!.continue();
      await result.page.waitForFunction(`!document.querySelector('.runs').textContent.startsWith('Loading')`);
    },
    BROWSER_TEST_MS,
  );
});
