// What the specification itself says of one answer, whatever serve does: its numbers (page
// sizes, the formula's length) and its rules for messages and error bodies. A step names the
// rules that apply to it; each returns what it found wrong.
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../../../contract/vocabulary.js';
import { itemsOf, reportTypeOf, totalOf } from './requests.js';
import type { Answer, ScenarioContext, SpecificationFinding } from './step.js';

export type Rule = (answer: Answer, context: ScenarioContext) => SpecificationFinding[];

const ok = (status: number) => status >= 200 && status < 300;
/** A value as a finding shows it: JSON, cut short. */
export const shownValue = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};
const field = (body: unknown, name: string): unknown => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined);

/** A page asked for without `limit`: 20 items at most, `limit` 20 and `page` 1 in the envelope. */
export const defaultPage: Rule = ({ status, body }) => {
  if (!ok(status)) return [{ rule: 'paging.default-limit', expected: '200 with the first page', found: `status ${status}` }];
  const found: SpecificationFinding[] = [];
  const items = itemsOf(body)?.length ?? 0;
  if (field(body, 'limit') !== PAGE_SIZE_DEFAULT || items > PAGE_SIZE_DEFAULT) {
    found.push({ rule: 'paging.default-limit', expected: `limit ${PAGE_SIZE_DEFAULT} (at most ${PAGE_SIZE_DEFAULT} items)`, found: `limit ${shownValue(field(body, 'limit'))}, ${items} items` });
  }
  if (field(body, 'page') !== 1) found.push({ rule: 'paging.first-page', expected: 'page 1', found: `page ${shownValue(field(body, 'page'))}` });
  return found;
};

/** Whatever `limit` asked, a page holds at most 100 items and says so. */
export const atMostMaxPage: Rule = ({ status, body }) => {
  if (!ok(status)) return [];
  const items = itemsOf(body)?.length ?? 0;
  const limit = field(body, 'limit');
  if (items <= PAGE_SIZE_MAX && (typeof limit !== 'number' || limit <= PAGE_SIZE_MAX)) return [];
  return [{ rule: 'paging.max-limit', expected: `at most ${PAGE_SIZE_MAX} items, limit at most ${PAGE_SIZE_MAX}`, found: `limit ${shownValue(limit)}, ${items} items` }];
};

/** A page past the end still tells the list's total: that of the first page (step `first`). */
export const sameTotalAs =
  (first: string): Rule =>
  ({ status, body }, context) => {
    const expected = totalOf(context.answers.get(first)?.body);
    if (!ok(status) || expected === undefined || totalOf(body) === expected) return [];
    return [{ rule: 'paging.total', expected: `total ${expected}, as on the first page`, found: `total ${shownValue(field(body, 'total'))}` }];
  };

/** The formula is checked (200) up to the specification's 2,000 characters, refused (400) past them. */
export const formulaLength =
  (length: number): Rule =>
  ({ status }) => {
    const accepted = length <= 2000;
    if (accepted ? status === 200 : status === 400) return [];
    return [{ rule: 'formula.length', expected: `${accepted ? '200 (checked)' : '400 (refused)'} for ${length} characters`, found: `status ${status}` }];
  };

/** Every text of an error answer that could name a field: its message and its issues' messages. */
function messagesOf(body: unknown): string[] {
  const issues = field(body, 'issues');
  const issueMessages = Array.isArray(issues) ? issues.map((issue) => field(issue, 'message')) : [];
  return [field(body, 'message'), ...issueMessages].filter((message): message is string => typeof message === 'string');
}

/**
 * A reportType or statistic not in the catalogs (rule 2): refused with a message that names
 * the field and not the valid set (two or more of `valid` named is a set).
 */
export const namesFieldNotValidSet =
  (fieldName: string, valid: (context: ScenarioContext) => readonly string[]): Rule =>
  ({ status, body }, context) => {
    if (status !== 400) return [];
    const messages = messagesOf(body);
    const found: SpecificationFinding[] = [];
    if (!messages.some((message) => message.includes(fieldName))) found.push({ rule: 'errors.names-field', expected: `a message naming ${fieldName}`, found: shownValue(messages) });
    const listing = messages.find((message) => valid(context).filter((value) => message.includes(value)).length >= 2);
    if (listing !== undefined) found.push({ rule: 'errors.valid-set', expected: `a message naming ${fieldName}, not its valid values`, found: shownValue(listing) });
    return found;
  };

/** Words that tell why a value was refused, which rule 3 keeps out of the message. */
const REASON = /\b(expected|received|number|numeric|integer|string|text|type)\b/i;

/** A number sent as text (rule 3): rejected by type with a message that names the field only. */
export const namesFieldOnly =
  (fieldName: string): Rule =>
  ({ status, body }) => {
    if (status !== 400) return [];
    const messages = messagesOf(body);
    const found: SpecificationFinding[] = [];
    if (!messages.some((message) => message.includes(fieldName))) found.push({ rule: 'errors.names-field', expected: `a message naming ${fieldName}`, found: shownValue(messages) });
    const reason = messages.find((message) => REASON.test(message.replaceAll(fieldName, '')));
    if (reason !== undefined) found.push({ rule: 'errors.type-reason', expected: `a message naming ${fieldName} only, not why`, found: shownValue(reason) });
    return found;
  };

/** Every report type key of the catalog the service served. */
export function reportTypeKeys(context: ScenarioContext): string[] {
  const catalog = context.answers.get('listReportTypes')?.body;
  if (typeof catalog !== 'object' || catalog === null) return [];
  return Object.values(catalog).flatMap((entries) => (Array.isArray(entries) ? entries.map((entry) => field(entry, 'key')).filter((key): key is string => typeof key === 'string') : []));
}

/** The statistics of the general template's analysis type, as the service's catalog lists them. */
export function statisticKeys(context: ScenarioContext): string[] {
  const analysisType = reportTypeOf(context, 'general')?.analysisType;
  const statistics = analysisType === undefined ? undefined : field(context.answers.get('listStatistics')?.body, analysisType);
  return Array.isArray(statistics) ? statistics.filter((key): key is string => typeof key === 'string') : [];
}

/** What another account's key gets of a template: never a success. */
export const notReachable =
  (what: string): Rule =>
  ({ status }) =>
    ok(status) ? [{ rule: 'accounts.isolation', expected: `another account's template is not ${what} (a 4xx)`, found: `status ${status}` }] : [];

/** What a sub-user's key gets: what the owner's key gets. */
export const reachable =
  (what: string): Rule =>
  ({ status }) =>
    ok(status) ? [] : [{ rule: 'accounts.sub-user', expected: `a sub-user's key ${what}`, found: `status ${status}` }];
