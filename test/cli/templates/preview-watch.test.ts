// The server of `templates preview --watch` (support/preview-watch/) through a plain HTTP
// client: the one-time code, the session, the Host check, the event stream and what each save
// sends. The page in a browser is test/preview-page/; the verb's flags and process are in
// preview.test.ts.
import { describe, expect, it, onTestFinished } from 'vitest';
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTemplatesValidate } from '../../../src/cli/commands/templates/validate.js';
import { MAX_STREAMS } from '../../../src/cli/commands/templates/support/preview-watch/event-stream.js';
import { watchSavedFile, type WatchSources } from '../../../src/cli/commands/templates/support/preview-watch/file-watch.js';
import { testDeps } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { openEvents, pictureName, signIn, validTemplate, watchedFile, type ServerEvent } from '../../helpers/preview-watch.js';

const isPicture = (name: string) => (event: ServerEvent) => event.event === 'picture' && (event.data as { name: string }).name === name;
const isDiagnostics = (event: ServerEvent) => event.event === 'diagnostics';

/** A session's Authorization header, from the code of a fresh preview. */
async function session(origin: string, code: string): Promise<Record<string, string>> {
  const { status, body } = await signIn(origin, code);
  expect(status).toBe(200);
  return { authorization: `Bearer ${body.token}` };
}

/** A GET with a Host header of the test's choosing (fetch always sends the URL's). */
function getWithHost(origin: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** What the server answers to `text` sent as it is, until it closes the connection. */
function rawRequest(origin: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(origin).port), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer)).on('error', reject);
  });
}

describe('preview watch: the way in', () => {
  it('serves the page on loopback, its code in the #fragment, under a strict Content-Security-Policy', async () => {
    const { watch, origin } = await watchedFile();
    expect(watch.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{20,}$/);
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/unsafe|\*|https?:/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|style=/);
    // The page's own files, named by content hash; nothing from elsewhere.
    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).filter((path) => path !== 'data:,');
    expect(files).toHaveLength(2);
    for (const path of files) {
      expect(path).toMatch(/^\/assets\/(main|style)-\w+\.(js|css)$/);
      expect((await fetch(`${origin}${path}`)).status).toBe(200);
    }
  });

  it('trades the code for a session once: a second try, another code or none gets nothing', async () => {
    const { origin, code } = await watchedFile();
    const first = await signIn(origin, code);
    expect(first.status).toBe(200);
    expect(first.body.token).toMatch(/^[\w-]{40,}$/);
    for (const attempt of [code, 'x'.repeat(code.length), '', null, { code }]) {
      const again = await signIn(origin, attempt);
      expect(again.status).toBe(403);
      expect(again.body).toEqual({ message: expect.stringMatching(/each link works once/) });
    }
  });

  it('takes the code as JSON only: a form cannot be sent from another site without asking first', async () => {
    const { origin, code } = await watchedFile();
    const form = await fetch(`${origin}/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `code=${code}` });
    expect(form.status).toBe(415);
    // The code still works: a refused form did not use it.
    expect((await signIn(origin, code)).status).toBe(200);
  });

  it('the event stream needs the session: no token, a wrong one or one from another preview get 401 and no data', async () => {
    const mine = await watchedFile();
    const other = await watchedFile();
    const otherSession = await session(other.origin, other.code);
    for (const headers of [{}, { authorization: 'Bearer nope' }, otherSession, { authorization: `Bearer ${mine.code}` }]) {
      const response = await fetch(`${mine.origin}/events`, { headers });
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain('svg');
    }
    // Before the code is traded, no token works either; after, the right one does.
    const ok = await fetch(`${mine.origin}/events`, { headers: await session(mine.origin, mine.code) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await ok.body?.cancel();
  });

  it('answers only as 127.0.0.1:PORT or localhost:PORT, so a rebound name reads nothing', async () => {
    const { origin, code } = await watchedFile();
    const port = new URL(origin).port;
    expect((await getWithHost(origin, '/', `localhost:${port}`)).status).toBe(200);
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`, `127.0.0.1.evil.example:${port}`]) {
      for (const path of ['/', '/events', '/session']) {
        const refused = await getWithHost(origin, path, host);
        expect(refused.status, `${host} ${path}`).toBe(400);
        expect(refused.body).not.toMatch(/svg|token/);
      }
    }
    // HTTP/1.1 without a Host header at all.
    const raw = await rawRequest(origin, 'GET /events HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    // Refusals used nothing: the code still works.
    expect((await signIn(origin, code)).status).toBe(200);
  });

  it('says 404 and 405 where there is nothing', async () => {
    const { origin } = await watchedFile();
    expect((await fetch(`${origin}/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${origin}/api/v2/templates`)).status).toBe(404);
    expect((await fetch(`${origin}/session`)).status).toBe(405);
    expect((await fetch(`${origin}/events`, { method: 'POST' })).status).toBe(405);
  });
});

/** The file written as an editor that saves by rename does: another file, renamed over it. */
function saveByRename(file: string, body: unknown, scratch = `${file}.tmp-save`): void {
  writeFileSync(scratch, JSON.stringify(body));
  renameSync(scratch, file);
}

describe('preview watch: saves', () => {
  it('a new stream starts with the picture, in both orientations; each save redraws it', async () => {
    const { origin, code, file } = await watchedFile();
    const stream = await openEvents(origin, await session(origin, code));
    const first = await stream.next(isPicture('Watched template'));
    const pages = (first.data as { pages: { orientation: string; svg: string }[] }).pages;
    expect(pages.map((page) => page.orientation)).toEqual(['portrait', 'landscape']);
    expect(pages[1]!.svg).toMatch(/^<svg [^>]*data-orientation="landscape"/);
    writeFileSync(file, JSON.stringify(validTemplate('Saved in place')));
    await stream.next(isPicture('Saved in place'));
    stream.close();
  });

  it('draws only the orientation asked for, or only those the template has, at the width asked for', async () => {
    const landscapeOnly = await watchedFile(validTemplate('Asked'), { orientation: 'landscape', width: 300 });
    const asked = landscapeOnly.states[0]!;
    expect(asked.kind === 'picture' && asked.pages.map((page) => [page.orientation, /^<svg [^>]*width="(\d+)"/.exec(page.svg)?.[1]])).toEqual([['landscape', '300']]);
    const layouts = validTemplate().layouts as { portrait: unknown };
    const portraitOnly = await watchedFile({ ...validTemplate('One layout'), layouts: { portrait: layouts.portrait } });
    const has = portraitOnly.states[0]!;
    expect(has.kind === 'picture' && has.pages.map((page) => page.orientation)).toEqual(['portrait']);
  });

  it('follows saves by rename (atomic writes, vim), and a file deleted then created again', async () => {
    const { origin, code, file, nextState } = await watchedFile();
    const stream = await openEvents(origin, await session(origin, code));
    saveByRename(file, validTemplate('Renamed over'));
    await stream.next(isPicture('Renamed over'));
    // vim with backupcopy=no: the old file is renamed away, a new one written in its place.
    renameSync(file, `${file}~`);
    writeFileSync(file, JSON.stringify(validTemplate('Written anew')));
    rmSync(`${file}~`);
    await stream.next(isPicture('Written anew'));
    rmSync(file);
    const gone = await stream.next(isDiagnostics);
    expect((gone.data as { verdict: { reason: string } }).verdict.reason).toBe('cannot read it: no such file');
    const back = nextState((state) => pictureName(state) === 'Back again');
    writeFileSync(file, JSON.stringify(validTemplate('Back again')));
    await back;
    await stream.next(isPicture('Back again'));
    stream.close();
  });

  it('an invalid save sends what `templates validate --offline` says, and keeps the last good picture for new pages', async () => {
    const { origin, code, file } = await watchedFile(validTemplate('Last good'));
    const headers = await session(origin, code);
    const stream = await openEvents(origin, headers);
    await stream.next(isPicture('Last good'));
    const invalid = { ...validTemplate('Broken'), reportType: 'vigor_ndvj', paperSize: 'a5' };
    writeFileSync(file, JSON.stringify(invalid));
    const diagnostics = (await stream.next(isDiagnostics)).data as { verdict: unknown; hints: string[] };
    const validate = testDeps({ env: { REPORTCTL_CONFIG_DIR: tempDir() } });
    await runTemplatesValidate([file], { offline: true, json: true }, validate.deps).catch(() => undefined);
    expect(diagnostics.verdict).toEqual(JSON.parse(validate.stdout()));
    expect(diagnostics.hints.join('\n')).toMatch(/vigor_ndvi/);
    // A page opened now gets the last good picture, then why the file is not good now.
    const later = await openEvents(origin, headers);
    await later.next(isDiagnostics);
    expect(later.events.map((event) => [event.event, (event.data as { name?: string }).name])).toEqual([
      ['picture', 'Last good'],
      ['diagnostics', undefined],
    ]);
    stream.close();
    later.close();
  });

  it.each([
    ['not JSON', '{"name": "half', /^not valid JSON: line 1, column \d+: /],
    ['not UTF-8', Buffer.concat([Buffer.from('{\n  "name": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]), /^is not UTF-8: at byte offset 16 \(line 2\), 0xE9 begins an incomplete character$/],
    ['over 1 MiB', `{"name": "big"}${' '.repeat(1024 * 1024)}`, /^too large for a template: 1\.0 MiB/],
    ['a folder', null, /^cannot read it: /],
  ])('a file %s gets its reason, with no picture', async (_what, content, reason) => {
    const { file, nextState } = await watchedFile();
    const checked = nextState((state) => state.kind === 'diagnostics');
    if (content === null) {
      rmSync(file);
      mkdirSync(file);
    } else writeFileSync(file, content);
    const state = await checked;
    expect(state.kind === 'diagnostics' && state.verdict.reason).toMatch(reason);
  });
});

describe('preview watch: seeing saves', () => {
  /** Resolves after the n-th call of `saved`, counted from the watch's start. */
  function watchCalls(file: string, sources: WatchSources): { calls(n: number): Promise<void> } {
    let count = 0;
    const waiting: Array<[number, () => void]> = [];
    const watcher = watchSavedFile(
      file,
      async () => {
        count += 1;
        for (const [n, resolve] of waiting) if (count >= n) resolve();
      },
      sources,
    );
    onTestFinished(() => watcher.close());
    return { calls: (n) => new Promise((resolve) => (count >= n ? resolve() : waiting.push([n, resolve]))) };
  }

  it.each([
    ["the folder's events alone (no poll within the test)", { pollMs: 3_600_000 }],
    ['the poll alone (no events)', { events: false, pollMs: 20 }],
  ] as const)('sees a save in place, by rename, and a file created again, through %s', async (_how, sources) => {
    const file = join(tempDir('reportctl-watch-'), 'template.json');
    writeFileSync(file, '{}');
    const { calls } = watchCalls(file, sources);
    writeFileSync(file, '{"name": "in place"}');
    await calls(1);
    saveByRename(file, { name: 'renamed over' });
    await calls(2);
    rmSync(file);
    await calls(3);
    writeFileSync(file, '{}');
    await calls(4);
  });

  it('a run that fails does not stop the next saves from being seen', async () => {
    const file = join(tempDir('reportctl-watch-'), 'template.json');
    writeFileSync(file, '{}');
    let runs = 0;
    let second!: () => void;
    const seenTwice = new Promise<void>((resolve) => (second = resolve));
    const watcher = watchSavedFile(file, async () => {
      runs += 1;
      if (runs === 1) throw new Error('a bug');
      second();
    });
    onTestFinished(() => watcher.close());
    writeFileSync(file, '{"name": "first"}');
    await expect.poll(() => runs).toBe(1);
    writeFileSync(file, '{"name": "second"}');
    await seenTwice;
  });
});

describe('preview watch: bounded', () => {
  it('a page that stops reading gets the newest state once it reads again, not every save (a 256 KiB file saved 100 times)', async () => {
    // 200 elements, 100 a page, each with a property of 1,000 characters: just under the 256 KiB
    // a stored template holds.
    const elements = Array.from({ length: 200 }, (_, i) => ({ type: 'text', x: (i % 20) / 20, y: Math.floor(i / 20) / 10, width: 0.05, height: 0.1, text: 'x'.repeat(1000) }));
    const big = (name: string) => ({ ...validTemplate(name), layouts: { portrait: { elements: elements.slice(0, 100) }, landscape: { elements: elements.slice(100) } } });
    const { origin, code, file, nextState } = await watchedFile(big('save 0'));
    expect(JSON.stringify(big('save 0')).length).toBeGreaterThan(200 * 1024);
    const headers = await session(origin, code);
    // A reader that never reads: the server's writes fill its socket.
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    socket.write(`GET /events HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nAuthorization: ${headers.authorization}\r\n\r\n`);
    socket.pause();
    for (let save = 1; save <= 100; save++) {
      const checked = nextState((state) => pictureName(state) === `save ${save}`);
      writeFileSync(file, JSON.stringify(big(`save ${save}`)));
      await checked;
    }
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.resume();
    await new Promise<void>((resolve) => {
      const look = () => (received.includes('"name":"save 100"') ? resolve() : setTimeout(look, 20));
      look();
    });
    socket.destroy();
    // What the sockets held when they filled (saves 0 to k, in order), then the newest: no queue of the rest.
    const saves = [...received.matchAll(/^event: picture\ndata: .*?"name":"save (\d+)"/gm)].map((match) => Number(match[1]));
    const held = saves.slice(0, -1);
    expect(held).toEqual(held.map((_, i) => i));
    expect(saves.at(-1)).toBe(100);
    expect(saves.length).toBeLessThan(101);
  }, 60_000);

  it(`keeps at most ${MAX_STREAMS} streams open: one more ends the oldest`, async () => {
    const { origin, code } = await watchedFile();
    const headers = await session(origin, code);
    const streams = [];
    for (let i = 0; i <= MAX_STREAMS; i++) streams.push(await openEvents(origin, headers));
    await streams[0]!.ended;
    for (const stream of streams) stream.close();
  });
});

describe('preview watch: stopping', () => {
  it('close() says `stopped` to open pages, ends their streams and stops answering', async () => {
    const { origin, code, watch } = await watchedFile();
    const stream = await openEvents(origin, await session(origin, code));
    await stream.next((event) => event.event === 'picture');
    await watch.close();
    await stream.ended;
    expect(stream.events.at(-1)).toEqual({ event: 'stopped', data: {} });
    await expect(fetch(`${origin}/`)).rejects.toThrow();
  });

  it('an aborted signal stops it as close() does', async () => {
    const abort = new AbortController();
    const { origin } = await watchedFile(validTemplate(), { signal: abort.signal });
    abort.abort();
    await expect.poll(() => fetch(`${origin}/`).then(() => 'answering', () => 'stopped')).toBe('stopped');
  });
});
