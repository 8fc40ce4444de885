import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import type { PreviewStreams } from './event-stream.js';
import type { PreviewSignIn } from './sign-in.js';

/** Nothing but the page's own script, style and requests; the pictures are data: images. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const PAGE = 'index.html';
/** A sign-in body is `{"code": "…"}`: anything longer is not one. */
const MAX_SIGN_IN_BYTES = 1024;

export interface PreviewSite {
  port: number;
  signIn: PreviewSignIn;
  streams: PreviewStreams;
  /** The built page (dist/preview-page: index.html and its hashed script and style). */
  pageDir: string;
}

/**
 * The preview's HTTP routes: the page and its files (no data in them, so open to any request
 * that names this server), the sign-in that trades the URL's code for a session token, and the
 * event stream, which needs that token. A request addressed to any other host name is refused,
 * so a page whose own name resolves here (DNS rebinding) reads nothing.
 */
export function previewRoutes(site: PreviewSite): (request: IncomingMessage, response: ServerResponse) => void {
  const hosts = new Set([`127.0.0.1:${site.port}`, `localhost:${site.port}`]);
  let files: Map<string, Buffer> | null | undefined;
  const file = (name: string) => (files ??= readPage(site.pageDir))?.get(name);
  return (request, response) => {
    response.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
    response.setHeader('x-content-type-options', 'nosniff');
    response.setHeader('referrer-policy', 'no-referrer');
    response.setHeader('x-frame-options', 'DENY');
    response.setHeader('cross-origin-opener-policy', 'same-origin');
    response.setHeader('cross-origin-resource-policy', 'same-origin');
    if (!hosts.has(request.headers.host?.toLowerCase() ?? '')) {
      return answer(response, 400, { message: `This preview answers only as http://127.0.0.1:${site.port}/` });
    }
    const path = (request.url ?? '/').replace(/\?.*$/, '');
    const asset = /^\/assets\/([\w.-]+)$/.exec(path)?.[1];
    if (path === '/' || asset !== undefined) {
      if (request.method !== 'GET') return notAllowed(response, 'GET');
      return servePageFile(response, asset ?? PAGE, file(asset ?? PAGE), files === null);
    }
    if (path === '/session') return request.method === 'POST' ? void signIn(request, response, site.signIn) : notAllowed(response, 'POST');
    if (path === '/events') {
      if (request.method !== 'GET') return notAllowed(response, 'GET');
      if (!site.signIn.admits(request.headers.authorization)) return answer(response, 401, { message: 'Open the link the preview printed: this page has no session.' });
      return site.streams.open(response);
    }
    answer(response, 404, { message: 'Nothing here' });
  };
}

function servePageFile(response: ServerResponse, name: string, body: Buffer | undefined, unbuilt: boolean): void {
  if (body === undefined) {
    return answer(response, 404, { message: unbuilt ? 'The preview page is not built into this copy of reportctl (npm run build)' : 'No such file' });
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(name)] ?? 'application/octet-stream',
    // The page names its files by content hash: those never change; the page itself may.
    'cache-control': name === PAGE ? 'no-cache' : 'public, max-age=31536000, immutable',
  });
  response.end(body);
}

async function signIn(request: IncomingMessage, response: ServerResponse, signIn: PreviewSignIn): Promise<void> {
  response.setHeader('cache-control', 'no-store');
  // JSON only: another site cannot send it here without a preflight, which gets no CORS answer.
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) return answer(response, 415, { message: 'Send {"code": …} as JSON' });
  const body = await readBody(request, MAX_SIGN_IN_BYTES);
  let code: unknown;
  try {
    code = (JSON.parse(body ?? '') as { code?: unknown } | null)?.code;
  } catch {
    code = undefined;
  }
  const token = signIn.redeem(code);
  if (token === null) {
    return answer(response, 403, { message: 'This link was used already, or is not from this preview: each link works once. Start the preview again for a new one.' });
  }
  answer(response, 200, { token });
}

/** The body as text, or null when it is longer than `limit` bytes or not UTF-8. */
function readBody(request: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > limit) return resolve(null);
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        resolve(null);
      }
    });
    request.on('error', () => resolve(null));
  });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function notAllowed(response: ServerResponse, allow: string): void {
  response.setHeader('allow', allow);
  answer(response, 405, { message: `Only ${allow} here` });
}

/** The built page's files by name, read once; null when the page is not built. */
function readPage(dir: string): Map<string, Buffer> | null {
  try {
    const names = readdirSync(dir).filter((name) => CONTENT_TYPES[extname(name)] !== undefined);
    const files = new Map(names.map((name) => [name, readFileSync(join(dir, name))] as const));
    return files.has(PAGE) ? files : null;
  } catch {
    return null;
  }
}
