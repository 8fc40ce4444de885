// The data the account holds (queues, queue runs, analyses), paged through and checked item by
// item against the contract, with the paging rules only many items show: newest first, no
// item twice, and a total that counts the items the pages hold. On both sides: serve's own
// account holds a few of each.
import type { OperationId } from '../../../../contract/endpoints.js';
import { ProblemTally } from './contract-check.js';
import type { PacedService } from './paced.js';
import { itemsOf, totalOf } from './requests.js';
import type { Finding, Side } from './step.js';

/** Pages of 100 read of each list at most: enough to see the rules, few enough for the budget. */
const MAX_PAGES = 5;
const PAGE = 100;

interface Surveyed {
  operation: Extract<OperationId, 'listQueues' | 'listQueueRuns' | 'listAnalyses'>;
  path: string;
  what: string;
  rule: string;
  schema: 'queueSchema' | 'queueRunSchema' | 'analysisSchema';
}

const SURVEYED: readonly Surveyed[] = [
  { operation: 'listQueues', path: '/api/v2/queues', what: 'queues', rule: 'contract.queue', schema: 'queueSchema' },
  { operation: 'listQueueRuns', path: '/api/v2/queue-runs', what: 'queue runs', rule: 'contract.queue-run', schema: 'queueRunSchema' },
  { operation: 'listAnalyses', path: '/api/v2/analyses', what: 'analyses', rule: 'contract.analysis', schema: 'analysisSchema' },
];

export interface SurveyResult {
  findings: Finding[];
  notChecked: string[];
}

/** What the items of one list show: problems by kind (an example each), and the paging rules. */
class ListFindings {
  readonly problems = new ProblemTally();
  readonly paging = new Map<string, { expected: string; found: string }>();
  seen = 0;

  once(rule: string, expected: string, found: string): void {
    if (!this.paging.has(rule)) this.paging.set(rule, { expected, found });
  }
}

/** Pages through one list, checking each item; returns why it stopped early, if it did. */
async function walk(service: PacedService, list: Surveyed, schema: Record<string, unknown>, out: ListFindings): Promise<string | undefined> {
  const ids = new Set<string>();
  let total: number | undefined;
  let newest: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await service.send({ method: 'GET', path: list.path, query: { limit: PAGE, page }, label: `survey.${list.operation}` });
    if ('unanswered' in answer) return answer.unanswered;
    const items = itemsOf(answer.body);
    if (answer.status !== 200 || items === undefined) return `a page answered ${answer.status}`;
    const pageTotal = totalOf(answer.body);
    if (total !== undefined && pageTotal !== total) out.once('paging.total', `the same total on every page (${total})`, `${pageTotal} on page ${page}`);
    total ??= pageTotal;
    for (const item of items) {
      const id = String(item.id);
      if (ids.has(id)) out.once('paging.stable', 'no item on two pages', `${id} again on page ${page}`);
      ids.add(id);
      const createdAt = typeof item.createdAt === 'string' ? item.createdAt : undefined;
      if (createdAt !== undefined && newest !== undefined && createdAt > newest) out.once('paging.order', 'newest first (createdAt descending)', `${id} (${createdAt}) after one of ${newest}`);
      if (createdAt !== undefined) newest = createdAt;
      out.seen += 1;
      out.problems.check(schema, item);
    }
    if (items.length < PAGE || total === undefined || out.seen >= total) {
      if (total !== undefined && out.seen !== total) out.once('paging.total', `total ${total}, the items the pages hold`, `${out.seen} items`);
      return undefined;
    }
  }
  return `the first ${out.seen} of ${total} ${list.what} were checked (${MAX_PAGES} pages)`;
}

/** The survey of the lists of these operations (all when none is named). */
export async function survey(service: PacedService, side: Side, operations: readonly string[]): Promise<SurveyResult> {
  const contract = await import('../../../../contract/index.js');
  const { jsonSchemaOf } = await import('../../../../contract/json-schema.js');
  const result: SurveyResult = { findings: [], notChecked: [] };
  for (const list of SURVEYED.filter((each) => operations.length === 0 || operations.includes(each.operation))) {
    const out = new ListFindings();
    const stopped = await walk(service, list, jsonSchemaOf(contract[list.schema], 'output'), out);
    const step = `survey.${list.operation}`;
    if (stopped !== undefined) result.notChecked.push(`${list.what} against the contract: ${stopped}`);
    else if (out.seen === 0) result.notChecked.push(`${list.what} against the contract: the account holds none`);
    for (const found of out.problems.found(list.what)) {
      result.findings.push({ side, step, operation: list.operation, rule: list.rule, expected: `${list.what} as the contract describes them`, found });
    }
    for (const [rule, { expected, found }] of out.paging) result.findings.push({ side, step, operation: list.operation, rule, expected, found });
  }
  return result;
}
