import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type IssuedKey } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import {
  ISO_MS,
  createTemplate,
  expectError,
  expectIssues,
  fullBody,
  fastDbPath,
  listAll,
  minimalBody,
  pipelined,
  readCatalogs,
  type CatalogsOverHttp,
  type Page,
  type TemplateDoc,
} from '../../helpers/http.js';

import type { RunningServer } from '../../../src/server/listen.js';
import { attackedServerForSuite, elementsBody, noted } from '../../helpers/slow-clients.js';

/**
 * The template endpoints over real HTTP against the service in this process (docs/decisions.md:
 * "Responses", "The template document"). Expected values come from docs/decisions.md and the
 * catalogs the suite.server publishes, never from the implementation.
 */

const database = fastDbPath();
// Registered first, so it runs after the suite's afterAll has stopped the service.
afterAll(() => database.cleanup());
const suite = inProcessServiceForSuite({ db: database.db });
let catalogs: CatalogsOverHttp;

const post = (body: unknown) => api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  catalogs = await readCatalogs(suite.server, suite.account.apiKey);
});

describe('POST /api/v2/templates', () => {
  it('answers 201 with Location and the document with suite.server fields and defaults filled in', async () => {
    const body = minimalBody(catalogs, { name: 'Minimal counting' });
    const response = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });
    expect(response.status, response.text).toBe(201);
    const doc = response.body as TemplateDoc;
    expect(typeof doc.id).toBe('string');
    expect(doc.id.length).toBeGreaterThan(0);
    expect(response.headers.get('location')).toBe(`/api/v2/templates/${doc.id}`);
    expect(doc.userId).toBe(suite.account.userId);
    expect(doc).toMatchObject(body);
    expect(doc.createdAt).toMatch(ISO_MS);
    expect(doc.updatedAt).toMatch(ISO_MS);
    expect(doc.updatedAt).toBe(doc.createdAt);
    expect(Math.abs(Date.parse(doc.createdAt) - Date.now())).toBeLessThan(60_000);
    // Defaults (spec: paperSize letter, mapResolution 150, margins 2 each) and the catalog's layouts.
    expect(doc.paperSize).toBe('letter');
    expect(doc.mapResolution).toBe(150);
    expect(doc.margins).toEqual({ top: 2, right: 2, bottom: 2, left: 2 });
    expect(doc.layouts).toEqual(catalogs.viDefaults.layouts);
    expect(doc.selectedStatistics).toEqual([]);
    // A general template carries no index fields.
    expect(doc).not.toHaveProperty('indexName');
    expect(doc).not.toHaveProperty('colorScale');
    expect(doc).not.toHaveProperty('formula');
  });

  it('fills in the catalog colour scale of the index for a vegetation-index template', async () => {
    for (const indexName of ['NDVI', 'SAVI', 'NDRE']) {
      const body = minimalBody(catalogs, { analysisType: 'path', category: 'vegetation_index', indexName });
      const doc = await createTemplate(suite.server, suite.account.apiKey, body);
      expect(doc.indexName).toBe(indexName);
      expect(doc.colorScale).toEqual(catalogs.viDefaults.colorScales[indexName]);
      expect(doc.colorScale!.stops.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps every field it was given, element properties beyond the box included', async () => {
    const body = fullBody(catalogs, 'Everything given');
    const doc = await createTemplate(suite.server, suite.account.apiKey, body);
    expect(doc).toMatchObject(body);
    expect(doc.layouts!.portrait!.elements[0]).toEqual({ type: 'title', x: 0.05, y: 0.02, width: 0.9, height: 0.08, text: 'Lot report' });
    const fetched = await api(suite.server, 'GET', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(doc);
  });

  it('ignores id, userId, createdAt and updatedAt sent in the body', async () => {
    const body = {
      ...minimalBody(catalogs),
      id: 'chosen-by-client',
      userId: 'someone-else',
      createdAt: '2001-01-01T00:00:00.000Z',
      updatedAt: '2001-01-01T00:00:00.000Z',
    };
    const doc = await createTemplate(suite.server, suite.account.apiKey, body);
    expect(doc.id).not.toBe('chosen-by-client');
    expect(doc.userId).toBe(suite.account.userId);
    expect(doc.createdAt).not.toBe('2001-01-01T00:00:00.000Z');
    expect(doc.updatedAt).not.toBe('2001-01-01T00:00:00.000Z');
    expect((await api(suite.server, 'GET', '/api/v2/templates/chosen-by-client', { key: suite.account.apiKey })).status).toBe(404);
  });
});

describe('GET /api/v2/templates/presets', () => {
  interface Preset {
    id: string;
    name: string;
    description: string;
    analysisType: string;
    reportCategory: string;
    seedPayload: Record<string, unknown>;
  }
  let presets: Preset[];

  beforeAll(async () => {
    const response = await api(suite.server, 'GET', '/api/v2/templates/presets?limit=100', { key: suite.account.apiKey });
    expect(response.status).toBe(200);
    const envelope = response.body as Page<Preset>;
    expect(Object.keys(envelope).sort()).toEqual(['data', 'limit', 'page', 'total']);
    expect(envelope.page).toBe(1);
    expect(envelope.limit).toBe(100);
    expect(envelope.total).toBe(envelope.data.length);
    presets = envelope.data;
  });

  it('uses the paginated envelope with the default page size and the preset shape', async () => {
    expect(presets.length).toBeGreaterThan(0);
    const firstPage = await api(suite.server, 'GET', '/api/v2/templates/presets', { key: suite.account.apiKey });
    expect(firstPage.status).toBe(200);
    const envelope = firstPage.body as Page<Preset>;
    expect(envelope).toMatchObject({ page: 1, limit: 20, total: presets.length });
    const onePerPage = await api(suite.server, 'GET', '/api/v2/templates/presets?limit=1&page=2', { key: suite.account.apiKey });
    expect((onePerPage.body as Page<Preset>).data).toEqual(presets.slice(1, 2));
    for (const preset of presets) {
      expect(Object.keys(preset).sort()).toEqual(['analysisType', 'description', 'id', 'name', 'reportCategory', 'seedPayload']);
      expect(['counting', 'replanting', 'path']).toContain(preset.analysisType);
      expect(['general', 'vegetation_index']).toContain(preset.reportCategory);
      expect(preset.seedPayload.analysisType).toBe(preset.analysisType);
      expect(preset.seedPayload.reportCategory).toBe(preset.reportCategory);
    }
    expect(new Set(presets.map((preset) => preset.id)).size).toBe(presets.length);
  });

  it('every seedPayload POSTs as it is (201) and with a new name', async () => {
    const account = await suite.server.newAccount();
    for (const preset of presets) {
      const asIs = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: preset.seedPayload });
      expect(asIs.status, `${preset.id}: ${asIs.text}`).toBe(201);
      expect(asIs.body).toMatchObject(preset.seedPayload);

      const renamed = { ...preset.seedPayload, name: `Mine: ${preset.name}` };
      const withName = await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: renamed });
      expect(withName.status, `${preset.id}: ${withName.text}`).toBe(201);
      expect((withName.body as TemplateDoc).name).toBe(`Mine: ${preset.name}`);
      expect(withName.body).toMatchObject(renamed);
    }
  });
});

describe('GET /api/v2/templates/{id}', () => {
  it('returns the stored document; an unknown id is 404 NOT_FOUND', async () => {
    const doc = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    const response = await api(suite.server, 'GET', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(doc);
    expectError(await api(suite.server, 'GET', '/api/v2/templates/does-not-exist', { key: suite.account.apiKey }), 404, 'NOT_FOUND');
    expectError(
      await api(suite.server, 'GET', '/api/v2/templates/00000000-0000-4000-8000-000000000000', { key: suite.account.apiKey }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('validation issues name only fields that are wrong themselves', () => {
  it('an element with x: 1.5 and a valid width: only x; x: 0.8 with width: 0.5: width, the size that runs past the edge', async () => {
    const withElement = (box: Record<string, number>) => ({
      ...minimalBody(catalogs),
      layouts: { portrait: { elements: [{ type: 'map', x: 0, y: 0, width: 0.1, height: 0.1, ...box }] } },
    });
    const post = (body: unknown) => api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });
    const outOfRange = expectError(await post(withElement({ x: 1.5, width: 0.1 })), 400, 'VALIDATION_FAILED');
    expect(outOfRange.issues!.map((issue) => issue.path)).toEqual(['layouts.portrait.elements.0.x']);
    const pastTheEdge = expectError(await post(withElement({ x: 0.8, width: 0.5 })), 400, 'VALIDATION_FAILED');
    expect(pastTheEdge.issues!.map((issue) => issue.path)).toEqual(['layouts.portrait.elements.0.width']);
    expect(pastTheEdge.issues![0]!.message).toContain('x + width must not exceed 1');
  });
});

describe('PUT /api/v2/templates/{id}', () => {
  it('replaces the whole document: fields left out are gone or back to their default', async () => {
    const original = await createTemplate(suite.server, suite.account.apiKey, fullBody(catalogs, 'Before'));
    await sleep(5);
    // Same index (Custom_Index) and formula without L; no selectedStatistics, colorScale, saviL, layouts, page settings.
    const { selectedStatistics: _s, colorScale: _c, saviL: _l, layouts: _y, paperSize: _p, mapResolution: _m, margins: _g, ...rest } =
      fullBody(catalogs, 'After');
    const body = { ...rest, formula: '(NIR - R) / (NIR + R + eps)' };
    const response = await api(suite.server, 'PUT', `/api/v2/templates/${original.id}`, { key: suite.account.apiKey, body });
    expect(response.status, response.text).toBe(200);
    const replaced = response.body as TemplateDoc;
    expect(replaced.name).toBe('After');
    expect(replaced.formula).toBe('(NIR - R) / (NIR + R + eps)');
    expect(replaced.selectedStatistics ?? []).toEqual([]);
    expect(replaced.colorScale).toEqual(catalogs.viDefaults.colorScales.Custom_Index);
    // saviL has no place in the new document: gone, or the catalog default, never the old 0.3.
    expect([undefined, catalogs.viDefaults.defaults.saviL]).toContain(replaced.saviL);
    expect(replaced.layouts).toEqual(catalogs.viDefaults.layouts);
    expect(replaced.paperSize).toBe('letter');
    expect(replaced.mapResolution).toBe(150);
    expect(replaced.margins).toEqual({ top: 2, right: 2, bottom: 2, left: 2 });
    expect(replaced.id).toBe(original.id);
    expect(replaced.userId).toBe(original.userId);
    expect(replaced.createdAt).toBe(original.createdAt);
    expect(replaced.updatedAt).toMatch(ISO_MS);
    expect(replaced.updatedAt).not.toBe(original.updatedAt);
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(original.updatedAt));

    const fetched = await api(suite.server, 'GET', `/api/v2/templates/${original.id}`, { key: suite.account.apiKey });
    expect(fetched.body).toEqual(replaced);
  });

  it('switching a vegetation-index template to a general one drops every index field', async () => {
    const original = await createTemplate(suite.server, suite.account.apiKey, fullBody(catalogs, 'Index'));
    const body = minimalBody(catalogs, { name: 'Now general', analysisType: 'counting', category: 'general' });
    const response = await api(suite.server, 'PUT', `/api/v2/templates/${original.id}`, { key: suite.account.apiKey, body });
    expect(response.status, response.text).toBe(200);
    const replaced = response.body as TemplateDoc;
    for (const field of ['indexName', 'formula', 'colorScale', 'saviL']) expect(replaced).not.toHaveProperty(field);
    expect(replaced).toMatchObject(body);
  });

  it('ignores id, userId, createdAt and updatedAt in the body (a GET result can be PUT back)', async () => {
    const original = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs, { name: 'Round trip' }));
    await sleep(5);
    const body = {
      ...original,
      name: 'Round trip, renamed',
      id: 'another-id',
      userId: 'another-user',
      createdAt: '1999-12-31T23:59:59.999Z',
      updatedAt: '1999-12-31T23:59:59.999Z',
    };
    const response = await api(suite.server, 'PUT', `/api/v2/templates/${original.id}`, { key: suite.account.apiKey, body });
    expect(response.status, response.text).toBe(200);
    const replaced = response.body as TemplateDoc;
    expect(replaced.id).toBe(original.id);
    expect(replaced.userId).toBe(suite.account.userId);
    expect(replaced.createdAt).toBe(original.createdAt);
    expect(replaced.updatedAt).not.toBe('1999-12-31T23:59:59.999Z');
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(original.updatedAt));
    expect(replaced.name).toBe('Round trip, renamed');
    expect((await api(suite.server, 'GET', '/api/v2/templates/another-id', { key: suite.account.apiKey })).status).toBe(404);
  });

  it('an unknown id is 404, and an invalid body is 400 without changing the template', async () => {
    expectError(
      await api(suite.server, 'PUT', '/api/v2/templates/not-a-template', { key: suite.account.apiKey, body: minimalBody(catalogs) }),
      404,
      'NOT_FOUND',
    );
    const original = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    expectIssues(
      await api(suite.server, 'PUT', `/api/v2/templates/${original.id}`, { key: suite.account.apiKey, body: { ...minimalBody(catalogs), mapResolution: '300' } }),
      'mapResolution',
    );
    expect((await api(suite.server, 'GET', `/api/v2/templates/${original.id}`, { key: suite.account.apiKey })).body).toEqual(original);
  });
});

describe('DELETE /api/v2/templates/{id}', () => {
  it('is 204 with an empty body; then DELETE and GET are 404', async () => {
    const doc = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    const response = await api(suite.server, 'DELETE', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectError(await api(suite.server, 'DELETE', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'GET', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey }), 404, 'NOT_FOUND');
    const all = await listAll<TemplateDoc>(suite.server, suite.account.apiKey, '/api/v2/templates');
    expect(all.map((template) => template.id)).not.toContain(doc.id);
  });

  it('works for clients that send Content-Type: application/json on every request (no body)', async () => {
    // Many HTTP libraries set the header globally; a DELETE has no body to validate.
    const doc = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    const headers = { 'content-type': 'application/json' };
    const response = await api(suite.server, 'DELETE', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey, headers });
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
    expectError(await api(suite.server, 'DELETE', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey, headers }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/v2/templates/validate-formula', () => {
  const validate = (body: unknown) => api(suite.server, 'POST', '/api/v2/templates/validate-formula', { key: suite.account.apiKey, body });

  it('a valid formula is 200 { valid: true, usesL } and nothing else', async () => {
    const plain = await validate({ formula: '(NIR - R) / (NIR + R + eps)' });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ valid: true, usesL: false });
    const withL = await validate({ formula: '(1 + L) * (NIR - R) / (NIR + R + L + eps)' });
    expect(withL.status).toBe(200);
    expect(withL.body).toEqual({ valid: true, usesL: true });
  });

  it('an invalid formula is 200 { valid: false, usesL, errors: [{ message, offset, length }] }', async () => {
    const formula = '(NIR - R) / (NIR + nir + eps)';
    const response = await validate({ formula });
    expect(response.status).toBe(200);
    const result = response.body as { valid: boolean; usesL: boolean; errors: Array<{ message: string; offset: number; length: number }> };
    expect(Object.keys(result).sort()).toEqual(['errors', 'usesL', 'valid']);
    expect(result.valid).toBe(false);
    expect(result.usesL).toBe(false);
    expect(result.errors.length).toBeGreaterThanOrEqual(1);
    for (const error of result.errors) {
      expect(Object.keys(error).sort()).toEqual(['length', 'message', 'offset']);
      expect(typeof error.message).toBe('string');
      expect(Number.isInteger(error.offset)).toBe(true);
      expect(Number.isInteger(error.length)).toBe(true);
    }
    expect(result.errors[0]!.offset).toBe(formula.indexOf('nir'));
    expect(result.errors[0]!.length).toBe(3);

    const divisionWithL = await validate({ formula: 'L * NIR / R' });
    expect(divisionWithL.status).toBe(200);
    expect(divisionWithL.body).toMatchObject({ valid: false, usesL: true });

    for (const formula of ['', '   ', 'NIR ^ 2', '2 NIR', 'sqrt(NIR, R)']) {
      const verdict = await validate({ formula });
      expect(verdict.status, JSON.stringify(formula)).toBe(200);
      expect((verdict.body as { valid: boolean }).valid, JSON.stringify(formula)).toBe(false);
    }
  });

  it('2000 characters are allowed; a missing, non-string or 2001-character formula is 400 at `formula`', async () => {
    const longest = ('NIR' + ' + NIR'.repeat(300)).padEnd(2000, ' ');
    expect(longest.length).toBe(2000);
    const atLimit = await validate({ formula: longest });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body).toEqual({ valid: true, usesL: false });

    for (const body of [{}, { formula: 42 }, { formula: null }, { formula: ['NIR'] }, { formula: longest + ' ' }]) {
      const response = await validate(body);
      const error = expectIssues(response, 'formula');
      expect(error.issues!.every((issue) => issue.path === 'formula'), response.text).toBe(true);
    }
  });
});

describe('GET /api/v2/templates: filters', () => {
  it('analysisType, reportType and reportCategory filter the account’s templates (and combine)', async () => {
    const account = await suite.server.newAccount();
    const made: TemplateDoc[] = [];
    for (const analysisType of ['counting', 'replanting', 'path'] as const) {
      for (const category of ['general', 'vegetation_index'] as const) {
        made.push(await createTemplate(suite.server, account.apiKey, minimalBody(catalogs, { analysisType, category })));
      }
    }
    made.push(await createTemplate(suite.server, account.apiKey, minimalBody(catalogs, { analysisType: 'path', category: 'general' })));

    const ids = async (query: string) => {
      const response = await api(suite.server, 'GET', `/api/v2/templates?${query}`, { key: account.apiKey });
      expect(response.status, response.text).toBe(200);
      const envelope = response.body as Page<TemplateDoc>;
      expect(envelope.total).toBe(envelope.data.length);
      return envelope.data.map((template) => template.id).sort();
    };
    const expected = (keep: (template: TemplateDoc) => boolean) => made.filter(keep).map((template) => template.id).sort();

    expect(await ids('')).toEqual(expected(() => true));
    for (const analysisType of ['counting', 'replanting', 'path']) {
      expect(await ids(`analysisType=${analysisType}`)).toEqual(expected((t) => t.analysisType === analysisType));
    }
    for (const category of ['general', 'vegetation_index']) {
      expect(await ids(`reportCategory=${category}`)).toEqual(expected((t) => t.reportCategory === category));
    }
    const pathGeneral = made.find((t) => t.analysisType === 'path' && t.reportCategory === 'general')!;
    expect(await ids(`reportType=${pathGeneral.reportType}`)).toEqual(expected((t) => t.reportType === pathGeneral.reportType));
    expect((await ids(`reportType=${pathGeneral.reportType}`)).length).toBe(2);
    expect(await ids('reportType=no_such_report_type')).toEqual([]);
    expect(await ids('analysisType=path&reportCategory=vegetation_index')).toEqual(
      expected((t) => t.analysisType === 'path' && t.reportCategory === 'vegetation_index'),
    );
    expect(await ids('analysisType=counting&reportCategory=general&reportType=' + pathGeneral.reportType)).toEqual([]);
  });

  it('a filter value outside its allowed set is 400 at the parameter’s name', async () => {
    expectIssues(await api(suite.server, 'GET', '/api/v2/templates?analysisType=orchard', { key: suite.account.apiKey }), 'analysisType');
    expectIssues(await api(suite.server, 'GET', '/api/v2/templates?reportCategory=other', { key: suite.account.apiKey }), 'reportCategory');
  });
});

describe('GET /api/v2/templates: paging', () => {
  let account: IssuedKey;
  /** Templates in the order the service created them. */
  const created: TemplateDoc[] = [];
  let total = 0;

  beforeAll(async () => {
    account = await suite.server.newAccount({ templateLimit: 1000 });
    const body = minimalBody(catalogs, { name: 'paging' });
    // Pipelined on one connection: handled back to back, in this order, many within one
    // millisecond. Batches go on until some neighbours share a createdAt (the case the
    // tie-break exists for), at most ten batches.
    for (let batch = 0; batch < 10; batch++) {
      const responses = await pipelined(
        suite.server,
        account.apiKey,
        Array.from({ length: 40 }, (_, i) => ({
          method: 'POST',
          path: '/api/v2/templates',
          body: { ...body, name: `paging ${created.length + i}` },
        })),
      );
      for (const response of responses) {
        expect(response.status).toBe(201);
        created.push(response.body as TemplateDoc);
      }
      if (sameMillisecond() > 0) break;
    }
    total = created.length;
  });

  const sameMillisecond = () => created.filter((t, i) => i > 0 && t.createdAt === created[i - 1]!.createdAt).length;

  const pageOf = async (query: string) => {
    const response = await api(suite.server, 'GET', `/api/v2/templates?${query}`, { key: account.apiKey });
    return { response, envelope: response.body as Page<TemplateDoc> };
  };

  it('walking pages of 7 yields every id exactly once, newest first (insertion order among equal times)', async () => {
    expect(created.map((template) => template.name)).toEqual(Array.from({ length: total }, (_, i) => `paging ${i}`));
    expect(sameMillisecond()).toBeGreaterThan(0);
    const walked: string[] = [];
    const pages = Math.ceil(total / 7);
    for (let page = 1; page <= pages; page++) {
      const { response, envelope } = await pageOf(`limit=7&page=${page}`);
      expect(response.status).toBe(200);
      expect(envelope).toMatchObject({ total, page, limit: 7 });
      expect(envelope.data.length).toBe(page < pages ? 7 : total - (pages - 1) * 7);
      walked.push(...envelope.data.map((template) => template.id));
    }
    expect(new Set(walked).size).toBe(total);
    expect(walked).toEqual(created.map((template) => template.id).reverse());
  });

  it('many templates created at once page without gaps or repeats, in createdAt descending order', async () => {
    const burst = await suite.server.newAccount();
    const body = minimalBody(catalogs, { name: 'burst' });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api(suite.server, 'POST', '/api/v2/templates', { key: burst.apiKey, body: { ...body, name: `burst ${i}` } })),
    );
    expect(responses.map((response) => response.status)).toEqual(new Array(40).fill(201));
    const ids = responses.map((response) => (response.body as TemplateDoc).id);
    const walk = async () => {
      const seen: TemplateDoc[] = [];
      for (let page = 1; page <= 6; page++) {
        const response = await api(suite.server, 'GET', `/api/v2/templates?limit=7&page=${page}`, { key: burst.apiKey });
        expect(response.status).toBe(200);
        seen.push(...(response.body as Page<TemplateDoc>).data);
      }
      return seen;
    };
    const first = await walk();
    expect(first.map((template) => template.id).sort()).toEqual([...ids].sort());
    for (let i = 1; i < first.length; i++) expect(first[i - 1]!.createdAt >= first[i]!.createdAt).toBe(true);
    // The order is stable: a second walk is the same sequence.
    expect((await walk()).map((template) => template.id)).toEqual(first.map((template) => template.id));
  });

  it('a page past the end is 200 with empty data and the true total', async () => {
    const pastEnd = Math.ceil(total / 7) + 1;
    const { response, envelope } = await pageOf(`limit=7&page=${pastEnd}`);
    expect(response.status).toBe(200);
    expect(envelope).toEqual({ total, page: pastEnd, limit: 7, data: [] });
    const far = await pageOf('page=1000');
    expect(far.response.status).toBe(200);
    expect(far.envelope).toEqual({ total, page: 1000, limit: 20, data: [] });
  });

  it('defaults to page 1 and limit 20; limit=100 is allowed', async () => {
    const { envelope } = await pageOf('');
    expect(envelope).toMatchObject({ total, page: 1, limit: 20 });
    expect(envelope.data.map((template) => template.id)).toEqual(created.slice(-20).map((template) => template.id).reverse());
    const hundred = await pageOf('limit=100');
    expect(hundred.response.status).toBe(200);
    expect(hundred.envelope).toMatchObject({ total, page: 1, limit: 100 });
    expect(hundred.envelope.data.length).toBe(Math.min(100, total));
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
  ])('%s is 400 with issue path %s', async (query, path) => {
    const { response } = await pageOf(query);
    const body = expectIssues(response, path);
    expect(body.issues!.map((issue) => issue.path)).toEqual([path]);
  });
});

describe('400 VALIDATION_FAILED: template bodies, with the exact issue path', () => {
  const valid = () => minimalBody(catalogs, { analysisType: 'counting', category: 'general' });
  const stats = () => catalogs.statistics.counting;

  it('a number sent as text is rejected at its field, naming the field but not the reason', async () => {
    const body = expectIssues(await post({ ...valid(), mapResolution: '150' }), 'mapResolution');
    const issue = body.issues!.find((candidate) => candidate.path === 'mapResolution')!;
    expect(issue.message).toContain('mapResolution');
    expect(issue.message).not.toMatch(/number|string|expected|received|type/i);
    expect(body.issues!.map((candidate) => candidate.path)).toEqual(['mapResolution']);
  });

  it('an invented reportType is rejected at `reportType`; no message lists the valid report types', async () => {
    const response = await post({ ...valid(), reportType: 'plant_count_summary_v9' });
    const body = expectIssues(response, 'reportType');
    const everyKey = Object.values(catalogs.reportTypes).flatMap((entries) => entries.map((entry) => entry.key));
    for (const key of everyKey) expect(response.text).not.toContain(key);
    expect(body.issues!.find((issue) => issue.path === 'reportType')!.message).toContain('reportType');
  });

  it('an invented statistic is rejected at its index; no message lists the valid statistics', async () => {
    const response = await post({ ...valid(), selectedStatistics: [stats()[0], stats()[1], 'plantHappiness'] });
    const body = expectIssues(response, 'selectedStatistics.2');
    expect(body.issues!.map((issue) => issue.path)).toEqual(['selectedStatistics.2']);
    expect(body.issues![0]!.message).toContain('selectedStatistics');
    for (const statistic of stats().slice(2)) expect(response.text).not.toContain(statistic);
  });

  it('a statistic of another analysis type is not in this type’s catalog', async () => {
    const foreign = catalogs.statistics.path.find((statistic) => !stats().includes(statistic))!;
    expectIssues(await post({ ...valid(), selectedStatistics: [foreign] }), 'selectedStatistics.0');
  });

  it.each([
    ['margins.top', { margins: { top: -1, right: 2, bottom: 2, left: 2 } }],
    ['margins.top', { margins: { top: '2', right: 2, bottom: 2, left: 2 } }],
    ['margins.left', { margins: { top: 2, right: 2, bottom: 2 } }],
    ['layouts.portrait.elements.0.x', { layouts: { portrait: { elements: [{ type: 'map', x: 1.5, y: 0, width: 0.1, height: 0.1 }] } } }],
    ['layouts.portrait.elements.0.x', { layouts: { portrait: { elements: [{ type: 'map', x: '0.1', y: 0, width: 0.1, height: 0.1 }] } } }],
    ['layouts.landscape.elements.1.type', {
      layouts: {
        landscape: {
          elements: [
            { type: 'map', x: 0, y: 0, width: 0.5, height: 0.5 },
            { type: 'chart', x: 0, y: 0.5, width: 0.5, height: 0.5 },
          ],
        },
      },
    }],
    ['layouts', { layouts: {} }],
    ['layouts.portrait.elements', { layouts: { portrait: {} } }],
    ['mapResolution', { mapResolution: 71 }],
    ['mapResolution', { mapResolution: 1201 }],
    ['paperSize', { paperSize: 'a5' }],
    ['saviL', { saviL: 1.5 }],
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(201) }],
    ['analysisType', { analysisType: 'orchard' }],
    ['reportCategory', { reportCategory: 'index' }],
    ['selectedStatistics.1', { selectedStatistics: ['totalPlants', 'totalPlants'] }],
    ['colour', { colour: '#ffffff' }],
  ])('rejects at %s: %j', async (path, change) => {
    expectIssues(await post({ ...valid(), ...change }), path);
  });

  it('each unknown top-level field is reported at its own name', async () => {
    const body = expectIssues(await post({ ...valid(), colour: 'red', pageCount: 3 }), 'colour', 'pageCount');
    expect(body.issues!.map((issue) => issue.path).sort()).toEqual(['colour', 'pageCount']);
  });

  it('a box that leaves the page (x + width > 1) is reported inside the element', async () => {
    const body = expectError(
      await post({ ...valid(), layouts: { portrait: { elements: [{ type: 'map', x: 0.6, y: 0, width: 0.5, height: 0.5 }] } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(body.issues!.map((issue) => issue.path).every((path) => path.startsWith('layouts.portrait.elements.0.'))).toBe(true);
  });

  it('a missing required field is reported at its name', async () => {
    const { name: _name, reportTypeId: _id, ...rest } = valid();
    expectIssues(await post(rest), 'name', 'reportTypeId');
  });

  it('reportTypeId and reportCategory must match the catalog entry of the reportType', async () => {
    const other = catalogs.reportTypes.counting.find((entry) => entry.key !== valid().reportType)!;
    expectIssues(await post({ ...valid(), reportTypeId: other.id }), 'reportTypeId');
    expectIssues(await post({ ...valid(), reportCategory: 'vegetation_index', indexName: 'NDVI' }), 'reportCategory');
    // A report type of another analysis type is not a key for this one.
    const pathEntry = catalogs.reportTypes.path[0]!;
    expectIssues(await post({ ...valid(), reportType: pathEntry.key, reportTypeId: pathEntry.id }), 'reportType');
  });

  it('vegetation-index rules: indexName, formula, saviL and colorScale, each at its field', async () => {
    const vi = () => fullBody(catalogs, 'vi');
    const { indexName: _i, ...noIndex } = vi();
    expectIssues(await post(noIndex), 'indexName');
    expectIssues(await post({ ...vi(), indexName: 'GNDVI' }), 'indexName');
    const { formula: _f, ...noFormula } = vi();
    expectIssues(await post(noFormula), 'formula');
    expectIssues(await post({ ...vi(), formula: 'NIR / R' }), 'formula');
    expectIssues(await post({ ...vi(), formula: 'nir + R' }), 'formula');
    const { saviL: _l, ...noSaviL } = vi();
    expectIssues(await post(noSaviL), 'saviL');
    expectIssues(await post({ ...vi(), indexName: 'NDVI' }), 'formula');
    expectIssues(await post({ ...vi(), colorScale: { stops: [{ value: 0, color: '#000000' }] } }), 'colorScale.stops');
    expectIssues(await post({ ...vi(), colorScale: { stops: [{ value: 0, color: 'green' }, { value: 1, color: '#ffffff' }] } }), 'colorScale.stops.0.color');
    const descending = expectError(
      await post({ ...vi(), colorScale: { stops: [{ value: 1, color: '#000000' }, { value: 0, color: '#ffffff' }] } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(descending.issues!.every((issue) => issue.path.startsWith('colorScale.stops'))).toBe(true);
    // Index fields on a general template.
    expectIssues(await post({ ...valid(), indexName: 'NDVI' }), 'indexName');
  });

  it('several broken fields are all reported at once', async () => {
    expectIssues(await post({ ...valid(), mapResolution: '150', paperSize: 'a9', margins: { top: -1, right: 2, bottom: 2, left: 2 } }), 'mapResolution', 'paperSize', 'margins.top');
  });

  it('a body that is not an object is 400 at the path ""', async () => {
    for (const rawBody of ['[]', '"template"', '42', 'null']) {
      const response = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody, headers: { 'content-type': 'application/json' } });
      expectIssues(response, '');
    }
  });

  it('malformed JSON is 400 with exactly one issue at the path ""', async () => {
    for (const rawBody of ['{"name": "x",', '{name: 1}', "{'a': 1}", '{"a": 1}}']) {
      const response = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody, headers: { 'content-type': 'application/json' } });
      const body = expectError(response, 400, 'VALIDATION_FAILED');
      expect(body.issues!.length, rawBody).toBe(1);
      expect(body.issues![0]!.path).toBe('');
    }
    const forFormula = await api(suite.server, 'POST', '/api/v2/templates/validate-formula', {
      key: suite.account.apiKey,
      rawBody: '{"formula": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(expectError(forFormula, 400, 'VALIDATION_FAILED').issues).toEqual([{ path: '', message: expect.any(String) }]);
  });

  it('nothing is stored by a rejected create', async () => {
    const account = await suite.server.newAccount();
    await api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: { ...valid(), mapResolution: '150' } });
    const list = await api(suite.server, 'GET', '/api/v2/templates', { key: account.apiKey });
    expect((list.body as Page<TemplateDoc>).total).toBe(0);
  });
});

describe('403 PLAN_LIMIT_EXCEEDED', () => {
  it('a create at the account’s template limit is refused; a delete makes room again', async () => {
    const limited = await suite.server.newAccount({ templateLimit: 3 });
    const made: TemplateDoc[] = [];
    for (let i = 0; i < 3; i++) made.push(await createTemplate(suite.server, limited.apiKey, minimalBody(catalogs)));
    expectError(await api(suite.server, 'POST', '/api/v2/templates', { key: limited.apiKey, body: minimalBody(catalogs) }), 403, 'PLAN_LIMIT_EXCEEDED');
    const list = await api(suite.server, 'GET', '/api/v2/templates', { key: limited.apiKey });
    expect((list.body as Page<TemplateDoc>).total).toBe(3);
    // A replacement is not a new template.
    const replaced = await api(suite.server, 'PUT', `/api/v2/templates/${made[0]!.id}`, { key: limited.apiKey, body: minimalBody(catalogs) });
    expect(replaced.status).toBe(200);
    expect((await api(suite.server, 'DELETE', `/api/v2/templates/${made[1]!.id}`, { key: limited.apiKey })).status).toBe(204);
    await createTemplate(suite.server, limited.apiKey, minimalBody(catalogs));
    expectError(await api(suite.server, 'POST', '/api/v2/templates', { key: limited.apiKey, body: minimalBody(catalogs) }), 403, 'PLAN_LIMIT_EXCEEDED');
  });
});

describe('404 NOT_FOUND', () => {
  it('unknown ids for GET, PUT and DELETE', async () => {
    expectError(await api(suite.server, 'GET', '/api/v2/templates/nope', { key: suite.account.apiKey }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'PUT', '/api/v2/templates/nope', { key: suite.account.apiKey, body: minimalBody(catalogs) }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'DELETE', '/api/v2/templates/nope', { key: suite.account.apiKey }), 404, 'NOT_FOUND');
  });

  it('a PUT to an unknown id is 404 whatever its body: the id is looked up before the body is checked', async () => {
    const invalid = { ...minimalBody(catalogs), name: 5, reportType: 'no-such-type' };
    expectError(await api(suite.server, 'PUT', '/api/v2/templates/nope', { key: suite.account.apiKey, body: invalid }), 404, 'NOT_FOUND');
    expectError(await api(suite.server, 'PUT', '/api/v2/templates/nope', { key: suite.account.apiKey, body: [] }), 404, 'NOT_FOUND');
  });
});

describe('item 2: one account cannot make the server hold gigabytes', () => {
  let server: RunningServer;
  let owner: IssuedKey;
  attackedServerForSuite((attacked) => ({ server, owner } = attacked));
  const withElements = (portrait: unknown[], landscape: unknown[] = []) => elementsBody(catalogs, portrait, landscape);
  const templateCount = () => server.store.templates.count(owner.accountId);

  it('a template over 256 KiB once stored is refused 413 naming the limit, though each part is within its cap', async () => {
    const before = templateCount();
    // 2 x 150 elements of ~1 KiB: about 320 KiB, well under the 1 MiB body limit.
    const elements = Array.from({ length: 150 }, () => noted(1000));
    const body = withElements(elements, elements);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(1024 * 1024);
    const answer = await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body });
    expect(expectError(answer, 413, 'PAYLOAD_TOO_LARGE').message).toContain('256 KiB');
    expect(templateCount()).toBe(before);
    // The same refusal on a PUT, which leaves the template as it was.
    const stored = await createTemplate(server, owner.apiKey, minimalBody(catalogs));
    expectError(await api(server, 'PUT', `/api/v2/templates/${stored.id}`, { key: owner.apiKey, body }), 413, 'PAYLOAD_TOO_LARGE');
    expect((await api(server, 'GET', `/api/v2/templates/${stored.id}`, { key: owner.apiKey })).body).toEqual(stored);
    // Just under the cap is stored.
    const under = Array.from({ length: 110 }, () => noted(1000));
    expect((await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body: withElements(under, under) })).status).toBe(201);
  });

  it('more than 200 layout elements in one orientation are a 400 at that orientation', async () => {
    const tiny = { type: 'map', x: 0, y: 0, width: 0.1, height: 0.1 };
    const answer = await api(server, 'POST', '/api/v2/templates', {
      key: owner.apiKey,
      body: withElements(Array.from({ length: 200 }, () => tiny), Array.from({ length: 201 }, () => tiny)),
    });
    const issues = expectIssues(answer, 'layouts.landscape.elements').issues!;
    expect(issues.map((issue) => issue.path)).not.toContain('layouts.portrait.elements');
    expect(issues[0]!.message).toContain('200');
  });

  it('a free-form element property over 1,024 characters (as JSON) is a 400 at its path; a style object within it is kept', async () => {
    const answer = await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body: withElements([noted(1000), noted(1025)]) });
    expect(expectIssues(answer, 'layouts.portrait.elements.1.note').issues).toHaveLength(1);
    const nested = await api(server, 'POST', '/api/v2/templates', {
      key: owner.apiKey,
      body: withElements([{ ...noted(10), style: { rows: Array.from({ length: 300 }, (_, i) => i) } }]),
    });
    expectIssues(nested, 'layouts.portrait.elements.0.style');
    const styled = { ...noted(10), style: { bold: true } };
    const kept = await createTemplate(server, owner.apiKey, withElements([styled]));
    expect(kept.layouts!.portrait!.elements[0]).toEqual(styled);
  });

  it('a page read in steps is the same page: every document whole, in order, with the true total', async () => {
    const account = server.store.accounts.create({ templateLimit: 1000 });
    const made = [];
    for (let i = 0; i < 25; i++) made.push(await createTemplate(server, account.apiKey, minimalBody(catalogs, { name: `step ${i}` })));
    const page = (await api(server, 'GET', '/api/v2/templates?limit=23&page=1', { key: account.apiKey })).body as {
      total: number;
      data: Array<{ name: string }>;
    };
    expect(page.total).toBe(25);
    expect(page.data.map((template) => template.name)).toEqual(made.reverse().slice(0, 23).map((template) => template.name));
  });
});
