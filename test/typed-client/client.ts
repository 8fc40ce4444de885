// A user's code over the types `openapi-typescript` generates from the served document
// (./openapi.d.ts, written beside a copy of this file by test/server/openapi-typescript.test.ts,
// which then runs tsc on it). Not part of the main typecheck: the types exist only there.
import type { components, operations } from './openapi.js';

type Json<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

type TemplatesQuery = NonNullable<operations['listTemplates']['parameters']['query']>;
type TemplatePage = Json<operations['listTemplates']['responses'][200]>;
type TemplateBody = NonNullable<operations['createTemplate']['requestBody']>['content']['application/json'];
type CreatedTemplate = Json<operations['createTemplate']['responses'][201]>;
type ValidationFailed = components['schemas']['Error400'];
type QueueRunPage = Json<operations['listQueueRuns']['responses'][200]>;

async function getJson<Body>(baseUrl: string, apiKey: string, path: string, init: RequestInit = {}): Promise<Body> {
  const response = await fetch(new URL(path, baseUrl), { ...init, headers: { apiKey, 'content-type': 'application/json' } });
  return (await response.json()) as Body;
}

export function listTemplates(baseUrl: string, apiKey: string, query: TemplatesQuery): Promise<TemplatePage> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  return getJson<TemplatePage>(baseUrl, apiKey, `/api/v2/templates?${search}`);
}

type Created = { status: 201; body: CreatedTemplate } | { status: 400; body: ValidationFailed };

export async function createTemplate(baseUrl: string, apiKey: string, body: TemplateBody): Promise<Created> {
  const response = await fetch(new URL('/api/v2/templates', baseUrl), {
    method: 'POST',
    headers: { apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() } as Created;
}

export function listQueueRuns(baseUrl: string, apiKey: string, status?: QueueRunPage['data'][number]['status']): Promise<QueueRunPage> {
  return getJson<QueueRunPage>(baseUrl, apiKey, `/api/v2/queue-runs${status ? `?status=${status}` : ''}`);
}

// What a user relies on: the fields are typed, the closed sets are unions, the bounds are numbers.
export async function tour(baseUrl: string, apiKey: string): Promise<string[]> {
  const page = await listTemplates(baseUrl, apiKey, { page: 1, limit: 100, reportCategory: 'vegetation_index' });
  const names = page.data.map((template) => `${template.name} (${template.paperSize}, ${template.selectedStatistics.length} statistics)`);
  const created = await createTemplate(baseUrl, apiKey, {
    name: 'Plant count',
    analysisType: 'counting',
    reportType: 'plant_count',
    reportTypeId: '00000000-0000-4000-8000-000000000001',
    reportCategory: 'general',
  });
  if (created.status === 201) names.push(created.body.id);
  else names.push(...created.body.issues.map((issue) => `${created.body.error} at ${issue.path}`));
  const runs = await listQueueRuns(baseUrl, apiKey, 'running');
  for (const run of runs.data) {
    const done = run.steps.filter((step) => step.status === 'completed').length;
    names.push(`${run.name}: ${done}/${run.steps.length}`);
  }
  return names;
}

// @ts-expect-error limit is an integer in the document, not text
export const limitAsText: TemplatesQuery = { limit: '20' };
// @ts-expect-error a run status outside the documented set
export const unknownStatus: QueueRunPage['data'][number]['status'] = 'archived';
// @ts-expect-error analysisType is a closed set in a request body
export const unknownType: TemplateBody = { name: 'x', analysisType: 'spraying', reportType: 'x', reportTypeId: 'x', reportCategory: 'general' };
// @ts-expect-error a 400's code is VALIDATION_FAILED and nothing else
export const wrongCode: ValidationFailed['error'] = 'NOT_FOUND';
