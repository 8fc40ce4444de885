import { sameTotalForSubUser } from './account-steps.js';
import { pagingSteps } from './paging-steps.js';
import { itemsOf } from './requests.js';
import { shownValue } from './spec-rules.js';
import type { Answer, SpecificationFinding, Step } from './step.js';

const QUEUE_RUNS = '/api/v2/queue-runs';
const ANALYSES = '/api/v2/analyses';

/** A filtered page holds only items that match the filter. */
function onlyMatching(fieldName: string, value: string) {
  return ({ status, body }: Answer): SpecificationFinding[] => {
    const strangers = status === 200 ? (itemsOf(body) ?? []).filter((item) => item[fieldName] !== value) : [];
    return strangers.length === 0 ? [] : [{ rule: 'paging.filter', expected: `only items with ${fieldName} ${value}`, found: `${strangers.length} with ${shownValue(strangers[0]![fieldName])}` }];
  };
}

/** Presets, then what the account held: queues, queue runs, analyses, each under every paging rule. */
export const heldDataSteps: readonly Step[] = [
  ...pagingSteps({ operation: 'listPresets', path: '/api/v2/templates/presets', first: 'listPresets', pages: { held: true } }),
  ...pagingSteps({ operation: 'listQueues', path: '/api/v2/queues', first: 'listQueues', pages: { held: true } }),
  ...pagingSteps({ operation: 'listQueueRuns', path: QUEUE_RUNS, first: 'listQueueRuns', pages: { held: true } }),
  {
    name: 'listQueueRuns.status',
    operation: 'listQueueRuns',
    held: true,
    request: () => ({ method: 'GET', path: QUEUE_RUNS, query: { status: 'completed' } }),
    specification: onlyMatching('status', 'completed'),
  },
  { name: 'listQueueRuns.inventedStatus', operation: 'listQueueRuns', request: () => ({ method: 'GET', path: QUEUE_RUNS, query: { status: 'no_such_status' } }) },
  {
    name: 'listQueueRuns.subUser',
    operation: 'listQueueRuns',
    requires: 'subUser',
    needs: ['listQueueRuns'],
    held: true,
    request: () => ({ method: 'GET', path: QUEUE_RUNS, key: 'subUser' }),
    specification: sameTotalForSubUser('listQueueRuns'),
  },
  ...pagingSteps({ operation: 'listAnalyses', path: ANALYSES, first: 'listAnalyses', pages: { held: true } }),
  {
    name: 'listAnalyses.analysisType',
    operation: 'listAnalyses',
    held: true,
    request: () => ({ method: 'GET', path: ANALYSES, query: { analysisType: 'counting' } }),
    specification: onlyMatching('analysisType', 'counting'),
  },
];

export const openApiStep: Step = {
  name: 'getOpenApiDocument',
  operation: 'getOpenApiDocument',
  request: () => ({ method: 'GET', path: '/api/v2/openapi.json' }),
  // The document's wording is its own; which operations it describes is what compares.
  project: (body) => {
    const paths = (body as { paths?: Record<string, object> } | undefined)?.paths ?? {};
    return { operations: Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)).sort() };
  },
  values: ['operations'],
};
