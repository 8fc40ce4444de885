import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { previewState, type PreviewDrawing, type PreviewState } from './check.js';
import { PreviewStreams } from './event-stream.js';
import { watchSavedFile } from './file-watch.js';
import { previewRoutes } from './routes.js';
import { PreviewSignIn } from './sign-in.js';

export type { PreviewState } from './check.js';

/** How long open pages get to read the `stopped` event before their connections are cut. */
const CLOSE_GRACE_MS = 1000;

export interface PreviewWatchOptions extends PreviewDrawing {
  /** The template file shown, checked again on every save. */
  file: string;
  /** The clock the times on the page come from. */
  now: () => number;
  /** Aborting it stops the preview, as close() does. */
  signal?: AbortSignal;
  /** The built page; by default dist/preview-page, beside the bundle this runs from. */
  pageDir?: string;
  /** After each check, what the page now shows (the first one before this resolves). */
  onState?: (state: PreviewState) => void;
  /** A check that failed in a way no file should make it (a bug): the page keeps what it had. */
  onError?: (error: unknown) => void;
}

export interface PreviewWatch {
  /** The page's address on loopback, with the one-time code (#code=…) that opens it. */
  url: string;
  /** Says `stopped` to the open pages, then stops watching and serving. */
  close(): Promise<void>;
}

/**
 * A page on 127.0.0.1 (a free port) that shows a template file's page and redraws it on every
 * save, over server-sent events; while the file is not a valid template it shows why, beside
 * the last good picture. The URL works once: see PreviewSignIn.
 */
export async function startPreviewWatch(options: PreviewWatchOptions): Promise<PreviewWatch> {
  const streams = new PreviewStreams();
  const check = async () => {
    try {
      const state = await previewState(options.file, options, options.now);
      streams.publish(state);
      options.onState?.(state);
    } catch (error) {
      options.onError?.(error);
    }
  };
  await check();
  const signIn = new PreviewSignIn();
  const server = createServer({ requireHostHeader: true });
  server.maxConnections = 32;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  server.on('request', previewRoutes({ port, signIn, streams, pageDir: options.pageDir ?? builtPageDir() }));
  const watcher = watchSavedFile(options.file, check);

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      options.signal?.removeEventListener('abort', onAbort);
      watcher.close();
      streams.close();
      server.close(() => resolve());
      server.closeIdleConnections();
      // A page that stopped reading keeps its stream's socket full: cut it after a moment.
      setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
    }));
  const onAbort = () => void close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) await close();
  return { url: `http://127.0.0.1:${port}/#code=${signIn.code}`, close };
}

/** dist/preview-page, beside the bundle (dist/main.cjs) this runs from. */
function builtPageDir(): string {
  return typeof __dirname === 'string' ? join(__dirname, 'preview-page') : 'preview-page';
}
