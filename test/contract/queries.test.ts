// Across modules: the query schemas of every list endpoint (templates, queue runs, analyses, pages).
import { parse } from 'node:querystring';
import { describe, expect, it } from 'vitest';
import {
  analysesQuerySchema,
  pageQuerySchema,
  queueRunStatuses,
  queueRunsQuerySchema,
  templatesQuerySchema,
} from '../../src/contract/index.js';
import { parsed, pathsOf } from './fixtures.js';

// docs/decisions.md: "Responses": `page` < 1, `limit` < 1 or > 100, or a value outside a filter's
// allowed set is 400 with the parameter's name as the issue path; a page past the end is
// 200. Service spec: page starts at 1 (default 1), limit default 20, maximum 100.
// Values arrive as a parsed query string: strings, and an array for a repeated parameter.

const q = (search: string) => ({ ...parse(search) });

const pageSchemas = [
  ['pageQuerySchema', pageQuerySchema],
  ['templatesQuerySchema', templatesQuerySchema],
  ['queueRunsQuerySchema', queueRunsQuerySchema],
  ['analysesQuerySchema', analysesQuerySchema],
] as const;

describe.each(pageSchemas)('%s: page and limit', (_name, schema) => {
  it('defaults to page 1, limit 20', () => {
    expect(parsed(schema, q(''))).toMatchObject({ page: 1, limit: 20 });
  });

  it('reads page and limit as numbers', () => {
    expect(parsed(schema, q('page=3&limit=50'))).toMatchObject({ page: 3, limit: 50 });
  });

  it.each(['0', 'abc', '1.5', '', '-1'])('rejects page=%j at `page`', (page) => {
    expect(pathsOf(schema, { page })).toEqual(['page']);
  });

  it('rejects a repeated page parameter at `page`', () => {
    expect(q('page=1&page=2')).toEqual({ page: ['1', '2'] });
    expect(pathsOf(schema, q('page=1&page=2'))).toEqual(['page']);
  });

  it('accepts a page far past the end (answered 200 with empty data, not 400)', () => {
    expect(parsed(schema, q('page=5000'))).toMatchObject({ page: 5000 });
    expect(parsed(schema, q('page=10000000000'))).toMatchObject({ page: 10_000_000_000 });
  });

  it.each(['0', '101', 'abc', '', '2.5'])('rejects limit=%j at `limit`', (limit) => {
    expect(pathsOf(schema, { limit })).toEqual(['limit']);
  });

  it('accepts limit 1 and 100', () => {
    expect(parsed(schema, q('limit=1'))).toMatchObject({ limit: 1 });
    expect(parsed(schema, q('limit=100'))).toMatchObject({ limit: 100 });
  });

  it('reports page and limit separately when both are wrong', () => {
    expect(pathsOf(schema, q('page=0&limit=101')).sort()).toEqual(['limit', 'page']);
  });

  it('ignores unknown parameters', () => {
    expect(pathsOf(schema, q('page=2&sort=name&foo=1&foo=2'))).toEqual([]);
    expect(parsed(schema, q('page=2&sort=name'))).toMatchObject({ page: 2, limit: 20 });
  });
});

describe('templatesQuerySchema: filters', () => {
  it('accepts each analysisType and reportCategory, and any reportType', () => {
    for (const analysisType of ['counting', 'replanting', 'path']) {
      expect(parsed(templatesQuerySchema, q(`analysisType=${analysisType}`))).toMatchObject({ analysisType });
    }
    for (const reportCategory of ['general', 'vegetation_index']) {
      expect(parsed(templatesQuerySchema, q(`reportCategory=${reportCategory}`))).toMatchObject({ reportCategory });
    }
    expect(parsed(templatesQuerySchema, q('reportType=plant_count_summary'))).toMatchObject({
      reportType: 'plant_count_summary',
    });
  });

  it('rejects analysisType=weeds at `analysisType`', () => {
    expect(pathsOf(templatesQuerySchema, q('analysisType=weeds'))).toEqual(['analysisType']);
  });

  it('rejects reportCategory=thermal at `reportCategory`', () => {
    expect(pathsOf(templatesQuerySchema, q('reportCategory=thermal'))).toEqual(['reportCategory']);
  });

  it('rejects a repeated filter at its name', () => {
    expect(pathsOf(templatesQuerySchema, q('analysisType=counting&analysisType=path'))).toEqual(['analysisType']);
  });
});

describe('queueRunsQuerySchema: status', () => {
  it.each(queueRunStatuses)('accepts status=%s', (status) => {
    expect(parsed(queueRunsQuerySchema, q(`status=${status}`))).toMatchObject({ status });
  });

  it('knows exactly the six run statuses of the spec', () => {
    expect([...queueRunStatuses].sort()).toEqual(['cancelled', 'claimed', 'completed', 'failed', 'pending', 'running']);
  });

  it('rejects status=done at `status`', () => {
    expect(pathsOf(queueRunsQuerySchema, q('status=done'))).toEqual(['status']);
  });
});

describe('analysesQuerySchema: filters', () => {
  it('accepts lotId, analysisType and status together', () => {
    expect(parsed(analysesQuerySchema, q('lotId=lot-7&analysisType=counting&status=completed'))).toMatchObject({
      lotId: 'lot-7',
      analysisType: 'counting',
      status: 'completed',
    });
  });

  it('rejects analysisType=weeds at `analysisType`', () => {
    expect(pathsOf(analysesQuerySchema, q('analysisType=weeds'))).toEqual(['analysisType']);
  });

  it('rejects status=done at `status`', () => {
    expect(pathsOf(analysesQuerySchema, q('status=done'))).toEqual(['status']);
  });
});
