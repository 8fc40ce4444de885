// Across modules: the preview page (src/preview-page) and its server, in a real browser.
// The page of `templates preview --watch` in a real browser (Debian's chromium, driven by
// puppeteer-core): the server started in this process on a file the tests edit, or the built
// binary where the process itself must go away. One browser for the file, a fresh tab (and so a
// fresh sessionStorage) per page. Screenshots go to test/artifacts/ for a person to look at.
import { afterAll, beforeAll, describe, expect, onTestFinished } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { spawnCli } from '../helpers/cli.js';
import { hasProgram, testWith } from '../helpers/programs.js';
import { tempDir } from '../helpers/server.js';
import { validTemplate, watchedFile } from '../helpers/preview-watch.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const BROWSER_TEST_MS = 90_000;

let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasProgram('chromium')) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const { launch } = await import('puppeteer-core');
  browser = await launch({
    executablePath: spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim(),
    headless: true,
    // Root in a container: no user namespaces for chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
});

afterAll(async () => {
  await browser?.close();
});

interface OpenedPage {
  page: Page;
  /** The path of every request the page made, in order. */
  requests: string[];
  /** Console errors (a refused Content-Security-Policy among them) and uncaught exceptions. */
  errors: string[];
}

async function openPage(url: string, width = 1280): Promise<OpenedPage> {
  const page = await browser!.newPage();
  onTestFinished(() => page.close().catch(() => {}));
  await page.setViewport({ width, height: 900 });
  const opened: OpenedPage = { page, requests: [], errors: [] };
  page.on('request', (request) => opened.requests.push(new URL(request.url()).pathname));
  page.on('console', (entry) => {
    if (entry.type() === 'error') opened.errors.push(entry.text());
  });
  page.on('pageerror', (error) => opened.errors.push(String(error)));
  await page.goto(url);
  return opened;
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
const waitForText = (page: Page, selector: string, expected: string) =>
  page.waitForFunction(`document.querySelector(${JSON.stringify(selector)})?.textContent === ${JSON.stringify(expected)}`, { timeout: 10_000 });

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}preview-page-${name}-${page.viewport()!.width}.png`, fullPage: true });
}

describe('the preview page', () => {
  testWith(
    'chromium',
    'redraws at every save; an invalid save shows its diagnostics beside the last good picture',
    async () => {
      const { watch, file } = await watchedFile(validTemplate('Before the save'));
      const { page, errors } = await openPage(watch.url);
      await waitForText(page, '#picture-heading', 'Before the save');
      // The code is out of the address bar (and so out of the history's newest entry).
      expect(page.url()).not.toContain('code');
      expect(await page.$$eval('.picture img', (images) => images.map((image) => image.getAttribute('alt')))).toEqual([
        'portrait layout of Before the save',
        'landscape layout of Before the save',
      ]);
      expect(await text(page, '#file')).toBe(file);
      await screenshot(page, 'before');

      writeFileSync(file, JSON.stringify(validTemplate('After the save')));
      await waitForText(page, '#picture-heading', 'After the save');
      await screenshot(page, 'after');

      writeFileSync(file, JSON.stringify({ ...validTemplate('Broken'), reportType: 'vigor_ndvj' }));
      await page.waitForSelector('.diagnostics');
      expect(await text(page, '#picture-heading')).toBe('Last good version: After the save');
      expect(await page.$eval('.picture', (section) => section.classList.contains('stale'))).toBe(true);
      expect(await page.$$eval('.picture img', (images) => images.length)).toBe(2);
      const issues = await page.$$eval('.diagnostics .issues li', (items) => items.map((item) => item.textContent));
      expect(issues.some((issue) => issue?.startsWith('reportType '))).toBe(true);
      expect(await text(page, '.diagnostics .hints')).toContain('vigor_ndvi');
      // Beside: the diagnostics on the left, the picture on the right, on a wide window.
      type Box = { left: number; right: number; top: number };
      const [diagnostics, picture] = await Promise.all(['.diagnostics', '.picture'].map((selector) => page.$eval(selector, (element) => element.getBoundingClientRect().toJSON() as Box)));
      expect(diagnostics!.right).toBeLessThanOrEqual(picture!.left);
      expect(diagnostics!.top).toBe(picture!.top);
      await screenshot(page, 'invalid');
      await page.setViewport({ width: 390, height: 900 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await screenshot(page, 'invalid');

      writeFileSync(file, '{"name": "half');
      await page.waitForFunction(`document.querySelector('.diagnostics .note')?.textContent?.includes('not valid JSON')`);
      writeFileSync(file, JSON.stringify(validTemplate('Mended')));
      await waitForText(page, '#picture-heading', 'Mended');
      expect(await page.$('.diagnostics')).toBeNull();
      expect(errors).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'a used link, or none, gets nothing of the file; a reload of the signed-in tab keeps its session',
    async () => {
      const { watch, origin } = await watchedFile(validTemplate('Private'));
      const first = await openPage(watch.url);
      await waitForText(first.page, '#picture-heading', 'Private');

      const again = await openPage(watch.url);
      await again.page.waitForSelector('.message.error');
      expect(await text(again.page, '#main')).toMatch(/used already/);
      const none = await openPage(`${origin}/`);
      await none.page.waitForSelector('.message.error');
      expect(await text(none.page, '#main')).toMatch(/Open the link/);
      for (const { page, requests } of [again, none]) {
        expect(await page.$$('img')).toEqual([]);
        expect(await page.content()).not.toContain('Private');
        expect(requests).not.toContain('/events');
      }

      await first.page.reload();
      await waitForText(first.page, '#picture-heading', 'Private');
      expect(first.errors).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    "shows a file's names and messages as text, never as markup",
    async () => {
      const hostile = '<img src=x onerror="document.title=1"></script><b>bold</b>';
      const { watch, file } = await watchedFile(validTemplate(hostile));
      const { page, errors } = await openPage(watch.url);
      await waitForText(page, '#picture-heading', hostile);
      writeFileSync(file, JSON.stringify({ ...validTemplate(hostile), reportType: hostile }));
      await page.waitForSelector('.diagnostics');
      expect(await page.$$('b')).toEqual([]);
      expect(await page.$$eval('img', (images) => images.every((image) => image.src.startsWith('data:image/svg+xml')))).toBe(true);
      expect(await page.title()).toBe('reportctl preview');
      expect(errors).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  testWith(
    'chromium',
    'says so when reportctl stops, and when it is gone, keeping what it showed',
    async () => {
      const stopped = await watchedFile(validTemplate('Stopped cleanly'));
      const one = await openPage(stopped.watch.url);
      await waitForText(one.page, '#picture-heading', 'Stopped cleanly');
      await stopped.watch.close();
      await one.page.waitForSelector('body[data-connection="stopped"]');
      expect(await text(one.page, '#status')).toMatch(/^Stopped: reportctl no longer watches this file\. What you see is the file as of /);
      expect(await one.page.$$('.picture img')).toHaveLength(2);

      // A process that dies says nothing: the page tries again, and says what it shows meanwhile.
      const file = join(tempDir('reportctl-watch-'), 'template.json');
      writeFileSync(file, JSON.stringify(validTemplate('Killed')));
      const child = await spawnCli(['templates', 'preview', file, '--watch']);
      const two = await openPage(child.firstLine);
      await waitForText(two.page, '#picture-heading', 'Killed');
      await child.stop('SIGKILL');
      await two.page.waitForSelector('body[data-connection="retrying"]');
      expect(await text(two.page, '#status')).toMatch(/^Lost the connection to reportctl; trying again\. What you see is the file as of /);
      expect(await two.page.$$('.picture img')).toHaveLength(2);
      await screenshot(two.page, 'gone');
    },
    BROWSER_TEST_MS,
  );
});
