// The paging rules, asked of every list endpoint alike: the default page, limit at 0, 100 and
// 101, page 0, a page past the end, a value that is not a number, an unknown parameter and a
// repeated one. Where the specification states a number (20 by default, 100 at most), the
// answer is also held to it; the rest is compared with serve.
import type { OperationId } from '../../../../contract/endpoints.js';
import { PAGE_SIZE_MAX } from '../../../../contract/vocabulary.js';
import { totalOf } from './requests.js';
import { atMostMaxPage, defaultPage, sameTotalAs } from './spec-rules.js';
import type { Step, StepRequest } from './step.js';

export interface ListEndpoint {
  operation: Extract<OperationId, 'listTemplates' | 'listPresets' | 'listQueues' | 'listQueueRuns' | 'listAnalyses'>;
  path: string;
  /** The name of the step that asks for the first page without parameters. */
  first: string;
  needs?: readonly string[];
  /** How its pages are compared: the data the account held (`held`), or this run's (`project`). */
  pages: Pick<Step, 'held' | 'project' | 'values'>;
}

type Query = NonNullable<StepRequest['query']>;

function page(list: ListEndpoint, name: string, query: Query, extra: Partial<Step> = {}): Step {
  return {
    name,
    operation: list.operation,
    ...(list.needs ? { needs: list.needs } : {}),
    request: () => ({ method: 'GET', path: list.path, query }),
    ...list.pages,
    ...extra,
  };
}

/** The paging steps of one list endpoint, its first page first. */
export function pagingSteps(list: ListEndpoint): Step[] {
  const values = list.pages.values ?? [];
  const at = (rule: string) => `${list.operation}.${rule}`;
  return [
    page(list, list.first, {}, { values: [...values, 'limit', 'page'], specification: defaultPage }),
    page(list, at('limit0'), { limit: 0 }),
    page(list, at('limit100'), { limit: PAGE_SIZE_MAX }, { values: [...values, 'limit'], specification: atMostMaxPage }),
    page(list, at('limit101'), { limit: PAGE_SIZE_MAX + 1 }, { specification: atMostMaxPage }),
    page(list, at('page0'), { page: 0 }),
    {
      ...page(list, at('pastTheEnd'), {}, { values: [...values, 'data'], specification: sameTotalAs(list.first) }),
      needs: [...(list.needs ?? []), list.first],
      request: (context) => {
        const total = totalOf(context.answers.get(list.first)?.body);
        return total === undefined ? undefined : { method: 'GET', path: list.path, query: { limit: PAGE_SIZE_MAX, page: Math.ceil(total / PAGE_SIZE_MAX) + 1 } };
      },
    },
    page(list, at('nonNumeric'), { limit: 'many' }),
    page(list, at('unknownParameter'), { colour: 'green' }),
    page(list, at('repeated'), { limit: [1, 2] }),
  ];
}
