// What parity must see: a proxy in front of serve plants one difference at a time (each of the
// issue-51 audit's, found and missed, and more), and parity reports it where it belongs:
// against serve (a difference) or against the specification (a finding). Nothing planted,
// nothing reported; an order that differs is one line, not one per field.
import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/server.js';
import { itemsIn, paritySuite, proxyTo, type Before, type Change, type ParityJson, type ProxiedAnswer, type ProxiedRequest } from './support.js';

/** A field's value, or a pattern its text matches. */
type Like<T> = { [K in keyof T]?: T[K] | RegExp };
type Found = { difference: Like<ParityJson['differences'][number]> } | { finding: Like<ParityJson['specification'][number]> };

interface Plant {
  what: string;
  /** What parity runs: the operations the plant shows in. */
  args: string[];
  change?: Change;
  before?: Before;
  found: Found[];
}

const LISTS = /^\/api\/v2\/(templates|templates\/presets|queues|queue-runs|analyses)$/;
const isList = (request: ProxiedRequest) => request.method === 'GET' && LISTS.test(request.path);
/** The request's path and query as the proxy sends it on, once `edit` changed the query. */
const sendOn = (request: ProxiedRequest, edit: (query: URLSearchParams) => void) => {
  const query = new URLSearchParams(request.query);
  edit(query);
  return { url: `${request.path}?${query}` };
};
const refused = (parameter: string): ProxiedAnswer => ({
  status: 400,
  headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '100', 'x-ratelimit-reset': '60' },
  body: { error: 'VALIDATION_FAILED', message: 'Invalid query', issues: [{ path: parameter, message: `Unknown parameter ${parameter}` }] },
});
const isFormula = (request: ProxiedRequest) => request.path.endsWith('/validate-formula');
const formulaOf = (request: ProxiedRequest) => String((request.body as { formula?: unknown } | undefined)?.formula ?? '');
const queueRuns = (request: ProxiedRequest) => request.method === 'GET' && request.path === '/api/v2/queue-runs';
const eachRun = (edit: (run: Record<string, unknown>) => void): Change => (request, answer) => {
  if (queueRuns(request)) itemsIn(answer).forEach(edit);
};

/** A service whose lists are oldest first: each page asked is cut from the whole list, reversed. */
const validPaging = (request: ProxiedRequest) => ['limit', 'page'].every((name) => request.query.getAll(name).length === 0 || (request.query.getAll(name).length === 1 && /^[1-9]\d?$|^100$/.test(request.query.get(name)!)));
const oldestFirst: { before: Before; change: Change } = {
  before: (request) => (isList(request) && validPaging(request) ? sendOn(request, (query) => (query.set('limit', '100'), query.set('page', '1'))) : undefined),
  change: (request, answer) => {
    if (!isList(request) || !validPaging(request) || answer.status !== 200) return;
    const [limit, page] = [Number(request.query.get('limit') ?? 20), Number(request.query.get('page') ?? 1)];
    answer.body = { ...(answer.body as object), limit, page, data: itemsIn(answer).reverse().slice((page - 1) * limit, page * limit) };
  },
};

const found = (report: ParityJson | undefined, expected: Found) =>
  'difference' in expected ? report!.differences.some((difference) => matches(difference, expected.difference)) : report!.specification.some((finding) => matches(finding, expected.finding));
const matches = (actual: object, expected: object) => Object.entries(expected).every(([key, value]) => (value instanceof RegExp ? value.test(String((actual as Record<string, unknown>)[key])) : (actual as Record<string, unknown>)[key] === value));

describe('parity finds each planted difference', () => {
  const suite = paritySuite();
  let reportTypeKeys: string[] = [];

  const plants: Plant[] = [
    // What the audit's parity already found.
    {
      what: 'error bodies of another shape',
      args: ['--only', 'getTemplate'],
      change: (_request, answer) => {
        if (answer.status === 404) answer.body = { code: 404, msg: 'not here' };
      },
      found: [{ difference: { step: 'getTemplate.noOnes', path: 'body.error', expected: '(absent)', served: 'string' } }, { finding: { rule: 'errors.shape', side: 'target' } }],
    },
    {
      what: 'DELETE answered 200',
      args: ['--only', 'deleteTemplate'],
      change: (request, answer) => {
        if (request.method === 'DELETE' && answer.status === 204) answer.status = 200;
      },
      found: [{ difference: { step: 'deleteTemplate', path: 'status', expected: 200, served: 204 } }],
    },
    { what: 'lists oldest first', args: ['--only', 'listTemplates'], ...oldestFirst, found: [{ difference: { step: 'listTemplates', path: 'body.data[*].name' } }] },
    {
      what: 'X-RateLimit-Remaining missing on errors',
      args: ['--only', 'getTemplate'],
      change: (_request, answer) => {
        if (answer.status >= 400) delete answer.headers['x-ratelimit-remaining'];
      },
      found: [{ difference: { step: 'getTemplate.noOnes', path: 'header.x-ratelimit-remaining', expected: '(absent)' } }, { finding: { rule: 'rate-limit.remaining', side: 'target' } }],
    },
    {
      what: 'issue paths as arrays',
      args: ['--only', 'createTemplate'],
      change: (_request, answer) => {
        for (const issue of ((answer.body as { issues?: { path: unknown }[] } | undefined)?.issues ?? [])) issue.path = String(issue.path).split('.');
      },
      found: [{ difference: { step: 'createTemplate.quotedNumber', path: 'body.issues[].path', expected: 'array', served: 'string' } }],
    },
    {
      what: 'templates without userId',
      args: ['--only', 'getTemplate'],
      change: (request, answer) => {
        if (request.method === 'GET' && typeof answer.body === 'object' && answer.body !== null) delete (answer.body as { userId?: unknown }).userId;
      },
      found: [{ difference: { step: 'getTemplate', path: 'body.userId', expected: '(absent)', served: 'string' } }],
    },
    {
      what: 'an unknown key answered 403',
      args: ['--only', 'createTemplate'],
      change: (_request, answer) => {
        if (answer.status === 401 && (answer.body as { error?: string }).error === 'API_KEY_INVALID') answer.status = 403;
      },
      found: [{ difference: { step: 'createTemplate.wrongKey', path: 'status', expected: 403, served: 401 } }],
    },
    {
      what: 'presets as a bare array',
      args: ['--only', 'listPresets'],
      change: (request, answer) => {
        if (request.path.endsWith('/presets') && answer.status === 200) answer.body = itemsIn(answer);
      },
      found: [{ difference: { step: 'listPresets', path: 'body', expected: 'array', served: 'object' } }],
    },
    {
      what: 'a saviL default on every template',
      args: ['--only', 'getTemplate'],
      change: (request, answer) => {
        const body = answer.body as { saviL?: number; reportType?: string } | undefined;
        if (request.method === 'GET' && body?.reportType !== undefined) body.saviL ??= 0.5;
      },
      found: [{ difference: { step: 'getTemplate', path: 'body.saviL', expected: 'number', served: '(absent)' } }],
    },
    {
      what: 'validate-formula counted as a read',
      args: ['--only', 'validateFormula'],
      change: (request, answer) => {
        if (isFormula(request)) answer.headers['ratelimit-policy'] = '"reads";q=120;w=60';
      },
      found: [{ difference: { step: 'validateFormula.missing', path: 'header.ratelimit-policy', expected: '"reads";q=<n>;w=<n>' } }],
    },
    // What it missed.
    {
      what: 'limit=101 clamped to 100',
      args: ['--only', 'listQueueRuns'],
      before: (request) => (isList(request) && request.query.get('limit') === '101' ? sendOn(request, (query) => query.set('limit', '100')) : undefined),
      found: [{ difference: { step: 'listQueueRuns.limit101', path: 'status', expected: 200, served: 400 } }],
    },
    {
      what: 'a default page of 10',
      args: ['--only', 'listAnalyses'],
      before: (request) => (isList(request) && !request.query.has('limit') ? sendOn(request, (query) => query.set('limit', '10')) : undefined),
      found: [{ difference: { step: 'listAnalyses', path: 'body.limit', expected: 10, served: 20 } }, { finding: { rule: 'paging.default-limit', step: 'listAnalyses', side: 'target' } }],
    },
    {
      what: 'unknown query parameters refused',
      args: ['--only', 'listQueues'],
      before: (request) => {
        const unknown = [...request.query.keys()].find((name) => !['page', 'limit', 'analysisType', 'reportType', 'reportCategory', 'status', 'lotId'].includes(name));
        return isList(request) && unknown !== undefined ? { answer: refused(unknown) } : undefined;
      },
      found: [{ difference: { step: 'listQueues.unknownParameter', path: 'status', expected: 400, served: 200 } }],
    },
    {
      what: 'Retry-After as an HTTP date',
      args: ['--only', 'getOpenApiDocument'],
      before: (() => {
        let once = false;
        return (request: ProxiedRequest) => {
          if (once || !request.path.endsWith('/openapi.json')) return undefined;
          once = true;
          const answer = refused('x');
          return { answer: { status: 429, headers: { ...answer.headers, 'retry-after': new Date(suite.clock.now() + 5_000).toUTCString() }, body: { error: 'RATE_LIMITED', message: 'slow down' } } };
        };
      })(),
      found: [{ finding: { rule: 'rate-limit.retry-after', side: 'target', found: /GMT$/ } }],
    },
    {
      what: 'a division valid when eps is anywhere in it',
      args: ['--only', 'validateFormula'],
      change: (request, answer) => {
        if (isFormula(request) && answer.status === 200 && formulaOf(request).includes('eps')) answer.body = { valid: true, usesL: formulaOf(request).includes('L') };
      },
      found: [
        { difference: { step: 'validateFormula.epsInNumeratorOnly', path: 'body.valid', expected: true, served: false } },
        { difference: { step: 'validateFormula.nestedWithoutEps', path: 'body.valid', expected: true, served: false } },
      ],
    },
    {
      what: 'formulas up to 4,000 characters',
      args: ['--only', 'validateFormula'],
      change: (request, answer) => {
        if (isFormula(request) && formulaOf(request).length > 2000 && formulaOf(request).length <= 4000) Object.assign(answer, { status: 200, body: { valid: true, usesL: false } });
      },
      found: [{ difference: { step: 'validateFormula.tooLong', path: 'status', expected: 200, served: 400 } }, { finding: { rule: 'formula.length', step: 'validateFormula.tooLong', side: 'target' } }],
    },
    {
      what: 'messages that list the valid values',
      args: ['--only', 'createTemplate'],
      change: (request, answer) => {
        if (request.method !== 'POST' || answer.status !== 400) return;
        for (const issue of ((answer.body as { issues?: { path: string; message: string }[] }).issues ?? [])) {
          if (issue.path === 'reportType') issue.message = `reportType must be one of: ${reportTypeKeys.join(', ')}`;
        }
      },
      found: [{ finding: { rule: 'errors.valid-set', step: 'createTemplate.inventedReportType', side: 'target' } }],
    },
    {
      what: 'queue runs with estimatedHa as text',
      args: ['--only', 'listQueueRuns'],
      change: eachRun((run) => (run.estimatedHa = String(run.estimatedHa))),
      found: [{ finding: { rule: 'contract.queue-run', found: /estimatedHa: expected number, found string/ } }, { difference: { path: 'body.data[].estimatedHa', expected: 'string', served: 'number' } }],
    },
    {
      what: 'queue runs without queueId',
      args: ['--only', 'listQueueRuns'],
      change: eachRun((run) => delete run.queueId),
      found: [{ finding: { rule: 'contract.queue-run', found: /queueId: required, absent/ } }],
    },
    {
      what: 'queue run steps without order',
      args: ['--only', 'listQueueRuns'],
      change: eachRun((run) => (run.steps as Record<string, unknown>[]).forEach((step) => delete step.order)),
      found: [{ finding: { rule: 'contract.queue-run', found: /steps\[0\]\.order: required, absent/ } }],
    },
    {
      what: 'queue run times with +00:00',
      args: ['--only', 'listQueueRuns'],
      change: eachRun((run) => (run.createdAt = String(run.createdAt).replace(/\.\d{3}Z$/, '+00:00'))),
      found: [{ finding: { rule: 'contract.queue-run', found: /createdAt: expected an ISO 8601 UTC time with milliseconds/ } }],
    },
    {
      what: 'v0 reordered',
      args: ['--only', 'searchAnalysesV0'],
      change: (request, answer) => {
        if (request.path === '/api/v0/analyses') itemsIn(answer).reverse();
      },
      found: [{ difference: { step: 'searchAnalysesV0', path: 'body.order', expected: 'newest first', served: 'oldest first' } }],
    },
    // More of the same kinds.
    {
      what: 'X-RateLimit-Remaining that does not count down',
      args: ['--only', 'listPresets'],
      change: (_request, answer) => {
        answer.headers['x-ratelimit-remaining'] = answer.headers['x-ratelimit-limit'] ?? '120';
      },
      found: [{ finding: { rule: 'rate-limit.countdown', side: 'target' } }],
    },
    {
      what: 'a queue-run total one more than the items',
      args: ['--only', 'listQueueRuns'],
      change: (request, answer) => {
        if (queueRuns(request) && typeof (answer.body as { total?: unknown }).total === 'number') (answer.body as { total: number }).total += 1;
      },
      found: [{ finding: { rule: 'paging.total', step: 'survey.listQueueRuns' } }],
    },
    {
      what: 'page=0 taken as the first page',
      args: ['--only', 'listPresets'],
      before: (request) => (isList(request) && request.query.get('page') === '0' ? sendOn(request, (query) => query.set('page', '1')) : undefined),
      found: [{ difference: { step: 'listPresets.page0', path: 'status', expected: 200, served: 400 } }],
    },
    {
      what: 'a repeated parameter taken once',
      args: ['--only', 'listAnalyses'],
      before: (request) => (isList(request) && request.query.getAll('limit').length > 1 ? sendOn(request, (query) => query.set('limit', query.getAll('limit').at(-1)!)) : undefined),
      found: [{ difference: { step: 'listAnalyses.repeated', path: 'status', expected: 200, served: 400 } }],
    },
    {
      what: "another account's template readable",
      args: ['--only', 'getTemplate', '--other-account-key', 'OTHER'],
      change: (request, answer) => {
        if (request.method === 'GET' && answer.status === 404 && !request.path.endsWith('00000000-0000-4000-8000-000000000000')) Object.assign(answer, { status: 200, body: { id: request.path.split('/').at(-1), name: 'theirs' } });
      },
      found: [{ finding: { rule: 'accounts.isolation', step: 'getTemplate.otherAccounts', side: 'target' } }, { difference: { step: 'getTemplate.otherAccounts', path: 'status', expected: 200, served: 404 } }],
    },
    {
      what: "a sub-user's key that does not see the owner's templates",
      args: ['--only', 'getTemplate', '--sub-user-key', 'SUB'],
      change: (request, answer) => {
        if (request.method === 'GET' && request.headers.apikey === suite.subUserKey && answer.status === 200) Object.assign(answer, { status: 404, body: { error: 'NOT_FOUND', message: 'no such template' } });
      },
      found: [{ finding: { rule: 'accounts.sub-user', step: 'getTemplate.subUser', side: 'target' } }],
    },
    {
      what: 'queue runs oldest first',
      args: ['--only', 'listQueueRuns'],
      // The seeded runs may share a millisecond: times that go up one second a run.
      change: (request, answer) => {
        if (queueRuns(request)) itemsIn(answer).forEach((run, at) => (run.createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString()));
      },
      found: [{ finding: { rule: 'paging.order', step: 'survey.listQueueRuns' } }],
    },
    {
      what: 'an analysis status outside the contract',
      args: ['--only', 'listAnalyses'],
      change: (request, answer) => {
        if (request.path === '/api/v2/analyses') for (const analysis of itemsIn(answer)) if (analysis.status === 'completed') analysis.status = 'done';
      },
      found: [{ finding: { rule: 'contract.analysis', found: /status: expected one of completed, failed, found "done"/ } }],
    },
    {
      what: 'v0 analyses without createdAt',
      args: ['--only', 'searchAnalysesV0'],
      change: (request, answer) => {
        if (request.path === '/api/v0/analyses') for (const analysis of itemsIn(answer)) delete analysis.createdAt;
      },
      found: [{ finding: { rule: 'contract.analysis', step: 'searchAnalysesV0', found: /createdAt: required, absent \(\d+ analyses like this\)/ } }],
    },
    {
      what: "v0's filters combined",
      args: ['--only', 'searchAnalysesV0'],
      change: (request, answer) => {
        const asked = request.body as { analysisType?: string; status?: string } | undefined;
        if (request.path !== '/api/v0/analyses' || asked?.analysisType === undefined || asked.status === undefined) return;
        const kept = itemsIn(answer).filter((analysis) => analysis.status === asked.status);
        answer.body = { ...(answer.body as object), data: kept, total: kept.length };
      },
      found: [{ difference: { step: 'searchAnalysesV0.twoFilters', path: 'body.filters', expected: 'both', served: 'analysisType only' } }],
    },
    {
      what: 'a page past the end that repeats the last',
      args: ['--only', 'listQueues'],
      before: (request) => (isList(request) && Number(request.query.get('page')) > 1 ? sendOn(request, (query) => query.set('page', '1')) : undefined),
      found: [{ difference: { step: 'listQueues.pastTheEnd', path: 'body.data' } }],
    },
    {
      what: 'the first page numbered 0',
      args: ['--only', 'listQueues'],
      change: (request, answer) => {
        if (isList(request) && (answer.body as { page?: number }).page === 1) (answer.body as { page: number }).page = 0;
      },
      found: [{ finding: { rule: 'paging.first-page', step: 'listQueues' } }],
    },
  ];

  for (const { what, args, change, before, found: expected } of plants) it(what, async () => {
    reportTypeKeys = Object.values((await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<string, { key: string }[]>).flatMap((entries) => entries.map((entry) => entry.key));
    const keys = args.map((arg) => (arg === 'OTHER' ? suite.other.apiKey : arg === 'SUB' ? suite.subUserKey : arg));
    const proxy = await proxyTo(suite.server.url, change, before);
    const { code, stderr, report } = await suite.parity(keys, proxy.url);
    expect(code, stderr).toBe(1);
    for (const each of expected) expect(found(report, each), `${JSON.stringify(each)} in ${JSON.stringify({ differences: report!.differences, specification: report!.specification })}`).toBe(true);
    expect(await suite.leftOnTarget()).toEqual([]);
  });

  it('reports nothing through a proxy that plants nothing', async () => {
    const proxy = await proxyTo(suite.server.url);
    const { code, stderr, report } = await suite.parity(['--other-account-key', suite.other.apiKey, '--sub-user-key', suite.subUserKey], proxy.url);
    expect(code, stderr).toBe(0);
    expect([report!.differences, report!.specification, report!.notChecked]).toEqual([[], [], []]);
  });

  it('tells an order that differs in one line, whatever else the account holds', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<string, { id: string; key: string; reportCategory: string }[]>;
    const entry = catalog.counting![0]!;
    // An earlier template with fields none of the run's has: on a page of the oldest it shows.
    const earlier = (await api(suite.server, 'POST', '/api/v2/templates', {
      key: suite.account.apiKey,
      body: { name: 'kept from before', analysisType: 'counting', reportType: entry.key, reportTypeId: entry.id, reportCategory: entry.reportCategory, saviL: 0.3, paperSize: 'a3' },
    })).body as { id: string };
    try {
      const proxy = await proxyTo(suite.server.url, oldestFirst.change, oldestFirst.before);
      const { report } = await suite.parity(['--only', 'listTemplates'], proxy.url);
      expect(report!.differences.map(({ step, path }) => `${step} ${path}`)).toEqual(['listTemplates body.data[*].name']);
      expect(report!.specification).toEqual([]);
    } finally {
      await api(suite.server, 'DELETE', `/api/v2/templates/${earlier.id}`, { key: suite.account.apiKey });
    }
  });

  it('tells a failure served as a success by its status and error code, not field by field', async () => {
    const proxy = await proxyTo(suite.server.url, (request, answer) => {
      if (request.path.endsWith('/presets') && !request.query.has('page') && !request.query.has('limit') && !request.query.has('colour')) {
        answer.status = 503;
        answer.body = { error: 'SERVICE_UNAVAILABLE', message: 'down' };
      }
    });
    const { code, report } = await suite.parity(['--only', 'listPresets'], proxy.url);
    expect(code).toBe(1);
    expect(report!.differences.filter((difference) => difference.step === 'listPresets').map(({ path, expected, served }) => [path, expected, served])).toEqual([
      ['status', 503, 200],
      ['body.error', 'SERVICE_UNAVAILABLE', '(absent)'],
    ]);
  });
});

describe('parity against a target of 100 reads and 20 writes a minute', () => {
  const suite = paritySuite({ reads: 100, writes: 20 });

  it('finds the limits against the specification, and says it waited for them', async () => {
    const { code, stderr, report } = await suite.parity(['--only', 'validateFormula', '--only', 'listPresets']);
    expect(code).toBe(1);
    expect(report!.differences).toEqual([]);
    expect(report!.specification.map(({ rule, expected, found: sent }) => [rule, expected, sent])).toEqual([
      ['rate-limit.reads', 'X-RateLimit-Limit 120 (reads a minute)', expect.stringMatching(/^100\b/)],
      ['rate-limit.writes', 'X-RateLimit-Limit 120 or 30 (validate-formula as a read or a write a minute)', expect.stringMatching(/^20\b/)],
    ]);
    expect(report!.waitedSeconds).toBeGreaterThan(0);
    expect(stderr).toMatch(/^parity: waiting \d+ s for the target: its write limit is spent$/m);
  });
});
