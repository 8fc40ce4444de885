import { appendFileSync, readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { expect } from 'vitest';
import { serviceOpenApiDocument } from '../../src/server/routes/service.js';

/**
 * Every exchange the HTTP tests make, checked against the OpenAPI document the service
 * serves (built here from the same route table; a test checks the two are equal).
 *
 * - The answer's status must be documented for the operation, and its body and headers must
 *   match that response (openapi-backend, with Ajv in the 2020-12 dialect of OpenAPI 3.1).
 * - A request the document calls invalid must be refused (4xx): a document stricter than the
 *   service shows up here. Unknown query parameters are left out of this: the service ignores
 *   them on purpose, and OpenAPI cannot say so.
 * - A method a path does not have must be answered as `Error405` says, an unknown path as
 *   `Error404`, and an operation that needs a key, called without one, with a 401.
 *
 * A mismatch throws, failing the test. With OPENAPI_TRAFFIC_LOG=FILE each one is appended
 * there instead (one JSON line), to count them across a whole run; OPENAPI_TRAFFIC_DOCUMENT=FILE
 * checks against another document (an older or a published one).
 */
export interface Exchange {
  method: string;
  /** Path and query string, as sent. */
  target: string;
  headers: Record<string, string>;
  /** The body as sent: parsed JSON, or text (which may not be JSON at all). */
  body?: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  /** The answer's body parsed as JSON; undefined when empty or not JSON. */
  responseBody: unknown;
  responseText: string;
}

type AnyDocument = Document & {
  components: { responses: Record<string, ResponseObject>; schemas: Record<string, unknown> };
};
interface ResponseObject {
  headers?: Record<string, { schema: unknown }>;
  content?: Record<string, { schema: unknown }>;
}

const otherDocument = process.env.OPENAPI_TRAFFIC_DOCUMENT;
const document = (otherDocument ? JSON.parse(readFileSync(otherDocument, 'utf8')) : serviceOpenApiDocument()) as AnyDocument;

/** OpenAPI 3.1's schema dialect is JSON Schema 2020-12: Ajv's draft-07 default would skip keywords. */
function ajv2020(options: Options = {}) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, ...options });
  // A CommonJS module whose default export is the plugin.
  formats.default(ajv);
  return ajv;
}

const sharedAjv = new Map<string, Ajv2020>();
let backend: Promise<OpenAPIBackend> | undefined;
function validator(): Promise<OpenAPIBackend> {
  backend ??= (async () => {
    const api = new OpenAPIBackend({
      definition: structuredClone(document),
      strict: true,
      // Skips openapi-backend's own check of the document, which knows only OpenAPI 3.0's
      // schema object; Redocly lints the document as 3.1 (npm run lint:openapi).
      quick: true,
      // One Ajv per set of options: openapi-backend asks for a fresh one per schema it compiles.
      customizeAjv: (_ajv: unknown, options: Options) => {
        const key = JSON.stringify(options);
        let ajv = sharedAjv.get(key);
        if (!ajv) sharedAjv.set(key, (ajv = ajv2020(options)));
        return ajv as never;
      },
    });
    await api.init();
    return api;
  })();
  return backend;
}
// Started as the test file loads, while its server starts, so no test's timings include it.
// Each operation's validators compile on its first exchange (all at once take seconds).
void validator();

const componentChecks = new Map<string, ValidateFunction>();
function componentCheck(name: string): ValidateFunction {
  let check = componentChecks.get(name);
  if (!check) {
    const response: ResponseObject = document.components?.responses?.[name] ?? {};
    const headerNames = Object.keys(response.headers ?? {}).map((header) => header.toLowerCase());
    check = ajv2020({ coerceTypes: true }).compile({
      type: 'object',
      required: ['headers'],
      properties: {
        headers: { type: 'object', required: headerNames },
        body: (document.components?.schemas?.[name] ?? false) as object,
      },
    });
    componentChecks.set(name, check);
  }
  return check;
}

const templateToPattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** The methods the documented path(s) matching `path` have; null when none matches. */
function documentedMethods(path: string): Set<string> | null {
  const matching = Object.keys(document.paths ?? {}).filter((template) => templateToPattern(template).test(path));
  if (matching.length === 0) return null;
  const concrete = matching.filter((template) => !template.includes('{'));
  const chosen = concrete.length > 0 ? concrete : matching;
  return new Set(chosen.flatMap((template) => Object.keys(document.paths![template]!).map((method) => method.toUpperCase())));
}

const describe = (errors: unknown) => JSON.stringify(errors).slice(0, 1500);

export async function trafficMismatches(exchange: Exchange): Promise<string[]> {
  const api = await validator();
  const problems: string[] = [];
  const [rawPath, queryString = ''] = exchange.target.split('?', 2) as [string, string?];
  let path = rawPath;
  try {
    path = decodeURI(rawPath);
  } catch {
    // A malformed escape: matched as sent (the service answers 400).
  }
  // The service ignores one trailing slash, not two.
  path = path.length > 1 ? path.replace(/\/$/, '') : path;
  const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase();
  const hasBody = exchange.method.toUpperCase() !== 'HEAD' && exchange.status !== 204 && exchange.status !== 304;

  // OpenAPI matches a concrete path before a templated one: GET .../validate-formula is not getTemplate.
  // Parameters as OpenAPI's form style reads them: `limit[]` is a parameter of its own name
  // (as the service sees it), not qs's array; a repeated name is an array.
  // No prototype: a parameter may be called __proto__.
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(queryString)) {
    const before = query[name];
    query[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  const methods = documentedMethods(path);
  const operation = methods?.has(method)
    ? (api.router.matchOperation({ method, path, headers: exchange.headers, query }) as Operation | undefined)
    : undefined;
  if (!operation) {
    const expected = methods ? 405 : 404;
    const allowed = [expected, 400, 429, 500, 503];
    if (!allowed.includes(exchange.status)) {
      problems.push(`${exchange.method} ${path} is not in the document: expected ${expected}, got ${exchange.status}`);
    } else if (hasBody && exchange.responseBody === undefined) {
      problems.push(`${exchange.method} ${path} ${exchange.status} without a JSON body`);
    } else {
      const check = componentCheck(`Error${exchange.status}`);
      if (!check({ headers: exchange.responseHeaders, ...(hasBody ? { body: exchange.responseBody } : {}) })) {
        problems.push(`${exchange.method} ${path} ${exchange.status} does not match Error${exchange.status}: ${describe(check.errors)}`);
      }
    }
    return problems;
  }

  const where = `${exchange.method} ${path} (${operation.operationId}) answered ${exchange.status}`;
  // The service reads an empty JSON body as no body at all (README), and, as JSON allows,
  // ignores a byte order mark in front of one.
  const text = typeof exchange.body === 'string' ? exchange.body.replace(/^\uFEFF/, '') : exchange.body;
  const body = typeof text === 'string' && text.trim() === '' ? undefined : text;
  let request: { errors?: ErrorObject[] | null };
  try {
    request = api.validateRequest(
      { method, path, query, headers: exchange.headers, ...(body !== undefined ? { body: body as object } : {}) },
      operation,
    );
  } catch (error) {
    // A path parameter with a malformed escape: not a request the document allows.
    request = { errors: [{ keyword: 'parse', instancePath: '/path', schemaPath: '#/parameters', params: {}, message: String(error) }] };
  }
  const requestErrors = (request.errors ?? []).filter(
    (error) => !(error.keyword === 'additionalProperties' && error.instancePath === '/query'),
  );
  const bodyRequired = (operation.requestBody as { required?: boolean } | undefined)?.required === true;
  if (bodyRequired && body === undefined) {
    requestErrors.push({ keyword: 'required', instancePath: '/requestBody', schemaPath: '#/requestBody/required', params: {}, message: 'the body is required' });
  }
  if (requestErrors.length > 0 && exchange.status < 400) {
    problems.push(`${where}, but the document calls the request invalid: ${describe(requestErrors)}`);
  }
  const needsKey = (operation.security ?? document.security ?? []).length > 0;
  const keyNames = ['apikey', 'x-api-key', 'authorization'];
  const sentKey = Object.keys(exchange.headers).some((name) => keyNames.includes(name.toLowerCase()));
  if (needsKey && !sentKey && ![401, 400, 429, 503].includes(exchange.status)) {
    problems.push(`${where} to a request without a key, though the operation needs one`);
  }

  const documented = Object.keys(operation.responses ?? {});
  if (!documented.includes(String(exchange.status))) {
    problems.push(`${where}, which is not documented (documented: ${documented.join(', ')})`);
    return problems;
  }
  const response = (operation.responses as Record<string, ResponseObject>)[String(exchange.status)]!;
  if (response.content && hasBody) {
    const contentType = exchange.responseHeaders['content-type'] ?? '';
    if (!Object.keys(response.content).some((type) => contentType.startsWith(type))) {
      problems.push(`${where} with Content-Type "${contentType}", documented: ${Object.keys(response.content).join(', ')}`);
    }
    const body = api.validateResponse(exchange.responseBody, operation, exchange.status);
    if (!body.valid) problems.push(`${where}; the body does not match: ${describe(body.errors)}`);
    if (exchange.responseBody === undefined) problems.push(`${where} without a JSON body`);
  } else if (!response.content && exchange.responseText !== '') {
    problems.push(`${where} with a body, documented without one`);
  }
  const headers = api.validateResponseHeaders(exchange.responseHeaders, operation, { statusCode: exchange.status, setMatchType: 'superset' as never });
  if (!headers.valid) problems.push(`${where}; the headers do not match: ${describe(headers.errors)}`);
  return problems;
}

/** Checks one exchange and fails the calling test on a mismatch (or logs it, see above). */
export async function checkTraffic(exchange: Exchange): Promise<void> {
  const problems = await trafficMismatches(exchange);
  if (problems.length === 0) return;
  const log = process.env.OPENAPI_TRAFFIC_LOG;
  if (log) {
    const test = expect.getState().currentTestName;
    for (const problem of problems) appendFileSync(log, `${JSON.stringify({ problem, test })}\n`);
    return;
  }
  throw new Error(`The answer does not match the OpenAPI document:\n- ${problems.join('\n- ')}`);
}
