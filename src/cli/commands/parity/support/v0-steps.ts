// The deprecated POST /api/v0/analyses: the same analyses as GET /api/v2/analyses, in an order
// of its own (serve: storage order, oldest first), its filters not combined (serve applies only
// the first of lotId, analysisType, status). What the order and the filters are is told from
// the v2 listing of the same account (`listAnalyses.limit100`): when a side holds too few
// analyses to tell, that value is not compared.
import { analysisSchema } from '../../../../contract/resources.js';
import { jsonSchemaOf } from '../../../../contract/json-schema.js';
import { ProblemTally } from './contract-check.js';
import { itemsOf, totalOf } from './requests.js';
import { shownValue } from './spec-rules.js';
import type { Answer, ScenarioContext, SpecificationFinding, Step } from './step.js';

const V0 = '/api/v0/analyses';
const V2_PAGE = 'listAnalyses.limit100';

/** Every analysis of the account as v2 lists them, newest first; undefined when one page does not hold them all. */
function allAnalyses(context: ScenarioContext): Record<string, unknown>[] | undefined {
  const body = context.answers.get(V2_PAGE)?.body;
  const items = itemsOf(body);
  return items !== undefined && totalOf(body) === items.length ? items : undefined;
}

const idsOf = (items: readonly Record<string, unknown>[]) => items.map((item) => String(item.id));
const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, at) => id === b[at]);

/** v0's order against v2's (newest first): undefined when fewer than two analyses, or not the same ones. */
function orderOf(body: unknown, context: ScenarioContext): string | undefined {
  const v2 = allAnalyses(context);
  const v0 = itemsOf(body);
  if (v2 === undefined || v0 === undefined || v2.length < 2) return undefined;
  const [newest, found] = [idsOf(v2), idsOf(v0)];
  if (same(found, newest)) return 'newest first';
  if (same(found, [...newest].reverse())) return 'oldest first';
  return same([...found].sort(), [...newest].sort()) ? 'another order' : undefined;
}

type Counts = Record<'analysisType only' | 'status only' | 'both' | 'neither', number>;

/** How many analyses each reading of `{ analysisType, status }` finds. */
function countsOf(all: readonly Record<string, unknown>[], asked: { analysisType: unknown; status: unknown }): Counts {
  const count = (match: (item: Record<string, unknown>) => boolean) => all.filter(match).length;
  return {
    'analysisType only': count((item) => item.analysisType === asked.analysisType),
    'status only': count((item) => item.status === asked.status),
    both: count((item) => item.analysisType === asked.analysisType && item.status === asked.status),
    neither: all.length,
  };
}

/** An analysis type and a status of the account's analyses for which each reading finds another number, if there are any. */
function twoFilters(context: ScenarioContext): { analysisType: string; status: string } | undefined {
  const all = allAnalyses(context) ?? [];
  const distinct = (field: string) => [...new Set(all.map((item) => item[field]).filter((value): value is string => typeof value === 'string'))];
  for (const analysisType of distinct('analysisType')) {
    for (const status of distinct('status')) {
      if (new Set(Object.values(countsOf(all, { analysisType, status }))).size === 4) return { analysisType, status };
    }
  }
  return undefined;
}

/** Which of two filters v0 applied, told by its total. */
function filtersApplied(body: unknown, context: ScenarioContext): string | undefined {
  const all = allAnalyses(context);
  const asked = twoFilters(context);
  const total = totalOf(body);
  if (all === undefined || asked === undefined || total === undefined) return undefined;
  return Object.entries(countsOf(all, asked)).find(([, count]) => count === total)?.[0] ?? 'none of them';
}

/** Each analysis v0 answers, as the contract describes an analysis. */
function asTheContract({ status, body }: Answer): SpecificationFinding[] {
  if (status !== 200) return [];
  const tally = new ProblemTally();
  const schema = jsonSchemaOf(analysisSchema, 'output');
  for (const item of itemsOf(body) ?? []) tally.check(schema, item);
  return tally.found('analyses').map((found) => ({ rule: 'contract.analysis', expected: 'analyses as the contract describes them', found }));
}

/** v0 without a filter finds every analysis v2 lists. */
function sameAnalysesAsV2({ status, body }: Answer, context: ScenarioContext): SpecificationFinding[] {
  const expected = totalOf(context.answers.get(V2_PAGE)?.body);
  if (status !== 200 || expected === undefined || totalOf(body) === expected) return [];
  return [{ rule: 'v0.analyses', expected: `total ${expected}, as GET /api/v2/analyses`, found: `total ${shownValue((body as { total?: unknown }).total)}` }];
}

function lotOf(context: ScenarioContext): string | undefined {
  const lot = itemsOf(context.answers.get(V2_PAGE)?.body)?.[0]?.lotId;
  return typeof lot === 'string' ? lot : undefined;
}

/** The body with a value told from it, when one could be told. */
const withValue = (body: unknown, name: string, value: string | undefined): unknown =>
  value === undefined || typeof body !== 'object' || body === null ? body : { ...body, [name]: value };

export const v0Steps: readonly Step[] = [
  {
    name: 'searchAnalysesV0',
    operation: 'searchAnalysesV0',
    needs: [V2_PAGE],
    held: true,
    unordered: true,
    request: () => ({ method: 'POST', path: V0, body: {} }),
    project: (body, context) => withValue(body, 'order', orderOf(body, context)),
    valuesWhenBoth: ['order'],
    specification: (answer, context) => [...sameAnalysesAsV2(answer, context), ...asTheContract(answer)],
  },
  {
    name: 'searchAnalysesV0.lotId',
    operation: 'searchAnalysesV0',
    needs: [V2_PAGE],
    held: true,
    unordered: true,
    request: (context) => {
      const lotId = lotOf(context);
      return lotId === undefined ? undefined : { method: 'POST', path: V0, body: { lotId } };
    },
    specification: ({ status, body }, context) => {
      const strangers = status === 200 ? (itemsOf(body) ?? []).filter((item) => item.lotId !== lotOf(context)) : [];
      return strangers.length === 0 ? [] : [{ rule: 'v0.analyses', expected: `only analyses of lot ${lotOf(context)}`, found: `${strangers.length} of lot ${shownValue(strangers[0]!.lotId)}` }];
    },
  },
  {
    name: 'searchAnalysesV0.twoFilters',
    operation: 'searchAnalysesV0',
    needs: [V2_PAGE],
    held: true,
    unordered: true,
    request: (context) => {
      const filters = twoFilters(context);
      return filters === undefined ? undefined : { method: 'POST', path: V0, body: filters };
    },
    project: (body, context) => withValue(body, 'filters', filtersApplied(body, context)),
    valuesWhenBoth: ['filters'],
  },
  { name: 'searchAnalysesV0.unknownField', operation: 'searchAnalysesV0', held: true, request: () => ({ method: 'POST', path: V0, body: { lot: 'x' } }) },
];
