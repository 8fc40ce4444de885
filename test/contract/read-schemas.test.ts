// Across modules: the lenient schemas the client reads the service's resources with (resources.ts, common.ts).
import { describe, expect, it } from 'vitest';
import {
  applyTemplateDefaults,
  errorBodySchema,
  paginated,
  presetSchema,
  queueRunSchema,
  queueSchema,
  reportTypesCatalogSchema,
  statisticsCatalogSchema,
  stepStatuses,
  templateBodySchema,
  templateSchema,
  timestampSchema,
  vegetationIndexDefaultsSchema,
  withoutServerOwnedFields,
} from '../../src/contract/index.js';
import { presets, seedCatalogs } from '../../src/contract/default-catalogs.js';
import { element, parsed, pathsOf, vegetationBody } from './fixtures.js';

// One contract serves the server, the client and the tests: the client parses responses
// leniently (unknown fields pass through). Timestamps are ISO 8601 UTC with milliseconds.

const at = '2026-01-01T00:00:00.000Z';

function storedTemplate(extra: Record<string, unknown> = {}) {
  const body = withoutServerOwnedFields(parsed(templateBodySchema, vegetationBody({ indexName: 'NDVI' })));
  return {
    id: 'tpl_01',
    userId: 'usr_01',
    ...applyTemplateDefaults(body, seedCatalogs.vegetationIndexDefaults),
    createdAt: at,
    updatedAt: at,
    ...extra,
  };
}

function queueRun(extra: Record<string, unknown> = {}) {
  return {
    id: 'run_01',
    name: 'North fields, week 12',
    queueId: 'queue_01',
    status: 'pending',
    estimatedHa: 42.5,
    steps: [
      { order: 1, lotId: 'lot-7', analysisType: 'counting', status: 'pending' },
      { order: 2, lotId: 'lot-8', analysisType: 'path', status: 'pending' },
    ],
    createdAt: at,
    startedAt: null,
    finishedAt: null,
    ...extra,
  };
}

describe('timestamps: ISO 8601 UTC with milliseconds', () => {
  it.each(['2026-01-01T00:00:00.000Z', '2026-12-31T23:59:59.999Z'])('accepts %s', (timestamp) => {
    expect(pathsOf(timestampSchema, timestamp)).toEqual([]);
  });
  it.each(['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000', '2026-01-01T00:00:00.000+00:00', '2026-01-01', 'yesterday'])(
    'rejects %s',
    (timestamp) => {
      expect(pathsOf(timestampSchema, timestamp)).toEqual(['']);
    },
  );
});

describe('templateSchema (lenient)', () => {
  it('reads a stored template', () => {
    expect(pathsOf(templateSchema, storedTemplate())).toEqual([]);
  });

  it('keeps unknown fields, top-level and nested', () => {
    const template = storedTemplate({ shareUrl: 'https://example.test/t/1', version: 3 });
    template.margins = { ...template.margins!, gutter: 0.5 } as typeof template.margins;
    template.layouts = { portrait: { elements: [element({ text: 'Lot 7' })], columns: 2 } } as typeof template.layouts;
    const data = parsed(templateSchema, template);
    expect(data).toEqual(template);
    expect(data).toMatchObject({ shareUrl: 'https://example.test/t/1', version: 3 });
  });

  it('rejects timestamps without milliseconds or not in UTC at their field', () => {
    expect(pathsOf(templateSchema, storedTemplate({ createdAt: '2026-01-01T00:00:00Z' }))).toEqual(['createdAt']);
    expect(pathsOf(templateSchema, storedTemplate({ updatedAt: '2026-01-01T01:00:00.000+01:00' }))).toEqual(['updatedAt']);
  });
});

describe('queueRunSchema (lenient)', () => {
  it('reads a pending run with null startedAt and finishedAt', () => {
    expect(pathsOf(queueRunSchema, queueRun())).toEqual([]);
  });

  it("a step's analysisId and finishedAt are strings when present, absent before it finishes (never null)", () => {
    const step = { order: 1, lotId: 'lot-7', analysisType: 'counting', status: 'pending', analysisId: null, finishedAt: null };
    expect(pathsOf(queueRunSchema, queueRun({ steps: [step] }))).toEqual(['steps.0.analysisId', 'steps.0.finishedAt']);
  });

  it('reads a finished run whose steps have analysisId and finishedAt', () => {
    const run = queueRun({
      status: 'completed',
      startedAt: '2026-01-01T00:00:01.000Z',
      finishedAt: '2026-01-01T00:05:00.250Z',
      steps: [{ order: 1, lotId: 'lot-7', analysisType: 'counting', status: 'completed', analysisId: 'an_1', finishedAt: at }],
    });
    expect(pathsOf(queueRunSchema, run)).toEqual([]);
  });

  it('keeps unknown fields of the run and of its steps', () => {
    const run = queueRun({ priority: 'high' });
    (run.steps[0] as Record<string, unknown>).progress = 0.4;
    expect(parsed(queueRunSchema, run)).toEqual(run);
  });

  it('accepts a status it does not know (the real service may add states)', () => {
    expect(pathsOf(queueRunSchema, queueRun({ status: 'paused' }))).toEqual([]);
  });

  it('rejects timestamps without milliseconds at their path', () => {
    expect(pathsOf(queueRunSchema, queueRun({ createdAt: '2026-01-01T00:00:00Z' }))).toEqual(['createdAt']);
    expect(pathsOf(queueRunSchema, queueRun({ startedAt: '2026-01-01T00:00:00Z' }))).toEqual(['startedAt']);
    const step = { order: 1, lotId: 'lot-7', analysisType: 'counting', status: 'completed', analysisId: 'an_1' };
    expect(pathsOf(queueRunSchema, queueRun({ steps: [{ ...step, finishedAt: '2026-01-01T00:00:00Z' }] }))).toEqual([
      'steps.0.finishedAt',
    ]);
  });

  it('step statuses are exactly pending, running, completed, failed, skipped', () => {
    expect([...stepStatuses].sort()).toEqual(['completed', 'failed', 'pending', 'running', 'skipped']);
  });
});

describe('queueSchema (lenient)', () => {
  it('reads { id, name, steps: [{ order, lotId, analysisType }], createdAt } and keeps extras', () => {
    const queue = {
      id: 'queue_01',
      name: 'North fields',
      steps: [{ order: 1, lotId: 'lot-7', analysisType: 'counting', note: 'first' }],
      createdAt: at,
      description: 'weekly',
    };
    expect(parsed(queueSchema, queue)).toEqual(queue);
  });
});

describe('catalog schemas (lenient)', () => {
  it('read the seed catalogs', () => {
    expect(pathsOf(reportTypesCatalogSchema, seedCatalogs.reportTypes)).toEqual([]);
    expect(pathsOf(statisticsCatalogSchema, seedCatalogs.statistics)).toEqual([]);
    expect(pathsOf(vegetationIndexDefaultsSchema, seedCatalogs.vegetationIndexDefaults)).toEqual([]);
  });

  it('reportTypesCatalogSchema keeps unknown analysis types and unknown entry fields', () => {
    const entry = { ...seedCatalogs.reportTypes.counting[0]!, icon: 'sprout', label: { en: 'a', es: 'b', pt: 'c' } };
    const catalog = { ...seedCatalogs.reportTypes, counting: [entry], weeds: [] };
    expect(parsed(reportTypesCatalogSchema, catalog)).toEqual(catalog);
  });

  it('reportTypesCatalogSchema wants a UUID id', () => {
    const entry = { ...seedCatalogs.reportTypes.counting[0]!, id: 'plant-count' };
    expect(pathsOf(reportTypesCatalogSchema, { ...seedCatalogs.reportTypes, counting: [entry] })).toEqual(['counting.0.id']);
  });

  it('statisticsCatalogSchema is { counting: string[], replanting: string[], path: string[] }', () => {
    expect(pathsOf(statisticsCatalogSchema, { counting: [], replanting: [] })).toEqual(['path']);
    expect(pathsOf(statisticsCatalogSchema, { counting: [], replanting: [], path: [1] })).toEqual(['path.0']);
  });
});

describe('paginated envelope', () => {
  it('reads presets in the envelope and keeps unknown envelope fields', () => {
    const page = { total: presets.length, page: 1, limit: 20, data: presets, next: null };
    expect(parsed(paginated(presetSchema), page)).toEqual(page);
  });

  it('reads a page past the end: empty data and the true total', () => {
    expect(pathsOf(paginated(presetSchema), { total: 10, page: 9, limit: 20, data: [] })).toEqual([]);
  });
});

describe('errorBodySchema (lenient)', () => {
  it('reads { error, message } and a 400 with issues', () => {
    expect(pathsOf(errorBodySchema, { error: 'NOT_FOUND', message: 'Template not found' })).toEqual([]);
    expect(
      pathsOf(errorBodySchema, {
        error: 'VALIDATION_FAILED',
        message: 'Request body failed validation',
        issues: [{ path: 'mapResolution', message: 'Invalid mapResolution' }],
      }),
    ).toEqual([]);
  });

  it('keeps unknown fields, and codes it does not know', () => {
    const body = {
      error: 'TEAPOT',
      message: 'short and stout',
      requestId: 'req_1',
      issues: [{ path: '', message: 'Invalid request body', code: 'x' }],
    };
    expect(parsed(errorBodySchema, body)).toEqual(body);
  });

  it('wants a string issue path', () => {
    expect(pathsOf(errorBodySchema, { error: 'VALIDATION_FAILED', message: 'm', issues: [{ path: ['a'], message: 'm' }] })).toEqual([
      'issues.0.path',
    ]);
  });
});
