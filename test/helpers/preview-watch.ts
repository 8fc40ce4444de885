// The preview of `templates preview --watch`, started in the test process on a template file of
// its own, and a plain HTTP client for its sign-in and event stream.
import { request, type IncomingMessage } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { presets } from '../../src/contract/default-catalogs.js';
import { startPreviewWatch, type PreviewState, type PreviewWatch, type PreviewWatchOptions } from '../../src/cli/commands/templates/support/preview-watch/server.js';
import { tempDir } from './server.js';

/** The built page: the tests run against dist/, which test/setup/fresh-build.ts keeps fresh. */
export const PAGE_DIR = fileURLToPath(new URL('../../dist/preview-page/', import.meta.url));

/** A valid template (the NDVI preset), named `name`. */
export const validTemplate = (name = 'Watched template'): Record<string, unknown> => ({ ...presets.find((preset) => preset.id === 'preset-counting-vigor-ndvi')!.seedPayload, name });

export interface WatchedFile {
  file: string;
  watch: PreviewWatch;
  origin: string;
  code: string;
  /** Every state checked so far, in order. */
  states: PreviewState[];
  /** Resolves with the first state checked from now on that `matches`. */
  nextState(matches?: (state: PreviewState) => boolean): Promise<PreviewState>;
}

/** A template file and its preview, stopped after the test. */
export async function watchedFile(body: unknown = validTemplate(), options: Partial<PreviewWatchOptions> = {}): Promise<WatchedFile> {
  const file = join(tempDir('reportctl-watch-'), 'template.json');
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  const states: PreviewState[] = [];
  const waiting = new Set<{ matches: (state: PreviewState) => boolean; resolve: (state: PreviewState) => void }>();
  const watch = await startPreviewWatch({
    file,
    now: () => Date.now(),
    pageDir: PAGE_DIR,
    ...options,
    onState: (state) => {
      states.push(state);
      for (const waiter of waiting) {
        if (!waiter.matches(state)) continue;
        waiting.delete(waiter);
        waiter.resolve(state);
      }
    },
  });
  onTestFinished(() => watch.close());
  const url = new URL(watch.url);
  return {
    file,
    watch,
    origin: url.origin,
    code: url.hash.replace(/^#code=/, ''),
    states,
    nextState: (matches = () => true) => new Promise((resolve) => waiting.add({ matches, resolve })),
  };
}

/** The picture's name, or null for diagnostics. */
export const pictureName = (state: PreviewState) => (state.kind === 'picture' ? state.name : null);

/** POST /session with `code`: the status and the JSON answer. */
export async function signIn(origin: string, code: unknown): Promise<{ status: number; body: { token?: string; message?: string } }> {
  const response = await fetch(`${origin}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  return { status: response.status, body: (await response.json()) as { token?: string; message?: string } };
}

export interface ServerEvent {
  event: string;
  data: unknown;
}

export interface EventStream {
  response: IncomingMessage;
  events: ServerEvent[];
  /** Resolves with the first event received (already or later) that `matches`. */
  next(matches: (event: ServerEvent) => boolean): Promise<ServerEvent>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** GET /events with node:http, its frames parsed as they come. */
export function openEvents(origin: string, headers: Record<string, string>): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${origin}/events`, { headers }, (response) => {
      const events: ServerEvent[] = [];
      const waiting = new Set<() => void>();
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
        }
        for (const wake of waiting) wake();
      });
      const ended = new Promise<void>((done) => response.on('end', done).on('error', () => done()));
      const next = (matches: (event: ServerEvent) => boolean) =>
        new Promise<ServerEvent>((found) => {
          const look = () => {
            const event = events.find(matches);
            if (event === undefined) return;
            waiting.delete(look);
            found(event);
          };
          waiting.add(look);
          look();
        });
      resolve({ response, events, next, ended, close: () => outgoing.destroy() });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
