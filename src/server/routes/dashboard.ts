import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DASHBOARD_CODE_MINUTES, DASHBOARD_SIGN_IN_PATH } from '../../contract/vocabulary.js';
import type { DashboardCodes } from '../dashboard-codes.js';
import { ApiError, parseOr400, validationFailed } from '../errors.js';

/**
 * The dashboard (src/dashboard/, built into dist/dashboard/ by scripts/build.mjs): a page at
 * `/` and its files under `/dashboard/`. The page holds no data, so these routes need no key
 * and are outside the API's admission, rate limits and OpenAPI document; the page reads the
 * service through /api/v2 with the key its user gives it, as any client does. The one route
 * that responds with a key trades a one-time code for it (dashboard-codes.ts).
 */
export const DASHBOARD_ASSETS_PATH = '/dashboard/';

/** Scripts, styles and connections from this origin only; SVG previews are data: images. */
export const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface DashboardFile {
  body: Buffer;
  contentType: string;
  etag: string;
  /** The page is revalidated on every load; the other files carry a content hash in their name. */
  cacheControl: string;
}

const PAGE = 'index.html';

/** The built files, read once: a few files, served from memory. Null when not built. */
function readDashboardFiles(dir: string): Map<string, DashboardFile> | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const files = new Map<string, DashboardFile>();
  for (const name of names) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType) continue;
    const body = readFileSync(join(dir, name));
    files.set(name, {
      body,
      contentType,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: name === PAGE ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
  }
  return files.has(PAGE) ? files : null;
}

const DASHBOARD_ROUTE = { dashboard: true };
/** As written: `//` reaches `/` through ignoreTrailingSlash, and stays the API's 404. */
const DASHBOARD_PATH = /^\/(dashboard\/[^/?#]+)?(\?|$)/;

/** Whether the request is the dashboard's, which the API's admission leaves alone. */
export function isDashboardRequest(routeConfig: unknown, url: string): boolean {
  return (routeConfig as { dashboard?: boolean } | undefined)?.dashboard === true && DASHBOARD_PATH.test(url);
}

const signInSchema = z.strictObject({ code: z.string().max(100) });

export function registerDashboard(app: FastifyInstance, dir: string, codes: DashboardCodes): void {
  // Read on the first request, so a server nobody opens the page of never reads them.
  let files: Map<string, DashboardFile> | null | undefined;
  const serveFile = (name: string, request: FastifyRequest, reply: FastifyReply) => {
    files ??= readDashboardFiles(dir);
    reply.headers({
      'content-security-policy': DASHBOARD_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      // A page that opened this one (window.open) gets no handle on it: it cannot navigate it.
      'cross-origin-opener-policy': 'same-origin',
    });
    if (!files) throw new ApiError('NOT_FOUND', 'The dashboard is not built into this copy of reportctl (npm run build)');
    const file = files.get(name);
    if (!file) throw new ApiError('NOT_FOUND', 'No such dashboard file');
    reply.headers({ 'content-type': file.contentType, etag: file.etag, 'cache-control': file.cacheControl });
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.send(file.body);
  };
  app.post(DASHBOARD_SIGN_IN_PATH, { config: DASHBOARD_ROUTE }, async (request, reply) => {
    const { code } = parseOr400(signInSchema, request.body);
    const apiKey = codes.redeem(code);
    reply.header('cache-control', 'no-store');
    if (apiKey === null) {
      throw validationFailed([{ path: 'code', message: `The code is used, expired or unknown: each works once, within ${DASHBOARD_CODE_MINUTES} minutes` }], 'Sign-in');
    }
    return { apiKey };
  });
  app.get('/', { config: DASHBOARD_ROUTE }, (request, reply) => serveFile(PAGE, request, reply));
  app.get(`${DASHBOARD_ASSETS_PATH}:file`, { config: DASHBOARD_ROUTE }, (request, reply) => {
    const { file } = request.params as { file: string };
    return serveFile(file === PAGE ? '' : file, request, reply);
  });
}
