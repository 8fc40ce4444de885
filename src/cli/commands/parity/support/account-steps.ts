// Accounts: another account's template is not readable, writable or deletable with this
// account's key, and neither listing counts the other's; a sub-user's key sees the owner's.
// Each step needs the key it names (--other-account-key, --sub-user-key); without it the
// report says what was not checked.
import { atTemplate, oursOnly, TEMPLATES, templateBody, totalOf } from './requests.js';
import { notReachable, reachable, shownValue } from './spec-rules.js';
import type { ScenarioContext, SpecificationFinding, Step } from './step.js';

const OTHER = 'other';

/** A listing's names of this run's templates (as `oursOnly` keeps them). */
const ourNames = (body: unknown, context: ScenarioContext): string[] => (oursOnly({})(body, context) as { data?: string[] }).data ?? [];

/** A listing under one account's key holds none of this run's templates of the other account. */
function holdsOnly(whose: 'this' | 'other') {
  return ({ status, body }: { status: number; body: unknown }, context: ScenarioContext): SpecificationFinding[] => {
    if (status !== 200) return [];
    const strangers = ourNames(body, context).filter((name) => (name === `${context.prefix}${OTHER}`) !== (whose === 'other'));
    if (strangers.length === 0) return [];
    return [{ rule: 'accounts.isolation', expected: `${whose === 'this' ? "this account's" : "the other account's"} listing holds only its own templates`, found: shownValue(strangers) }];
  };
}

export const otherAccountSteps: readonly Step[] = [
  {
    name: 'createTemplate.otherAccount',
    operation: 'createTemplate',
    requires: 'otherAccount',
    needs: ['listReportTypes'],
    creates: OTHER,
    request: (context) => {
      const body = templateBody(context, OTHER, 'general');
      return body && { method: 'POST', path: TEMPLATES, body, key: 'otherAccount' };
    },
  },
  {
    name: 'getTemplate.otherAccounts',
    operation: 'getTemplate',
    requires: 'otherAccount',
    needs: ['createTemplate.otherAccount'],
    request: (context) => atTemplate(context, OTHER, 'GET'),
    specification: notReachable('readable'),
  },
  {
    name: 'replaceTemplate.otherAccounts',
    operation: 'replaceTemplate',
    requires: 'otherAccount',
    needs: ['listReportTypes', 'createTemplate.otherAccount'],
    request: (context) => {
      const body = templateBody(context, `${OTHER}-replaced`, 'general');
      return body && atTemplate(context, OTHER, 'PUT', { body });
    },
    specification: notReachable('writable'),
  },
  {
    name: 'deleteTemplate.otherAccounts',
    operation: 'deleteTemplate',
    requires: 'otherAccount',
    needs: ['createTemplate.otherAccount'],
    request: (context) => atTemplate(context, OTHER, 'DELETE'),
    specification: notReachable('deletable'),
  },
  {
    // After the three attempts, the other account still has its template as it made it.
    name: 'getTemplate.otherAccountKeeps',
    operation: 'getTemplate',
    requires: 'otherAccount',
    needs: ['createTemplate.otherAccount'],
    request: (context) => atTemplate(context, OTHER, 'GET', { key: 'otherAccount' }),
    values: ['name'],
    specification: ({ status, body }, context) => {
      const name = (body as { name?: unknown } | undefined)?.name;
      if (status === 200 && name === `${context.prefix}${OTHER}`) return [];
      return [{ rule: 'accounts.isolation', expected: "the other account's template, unchanged", found: status === 200 ? `named ${shownValue(name)}` : `status ${status}` }];
    },
  },
  {
    name: 'listTemplates.otherAccount',
    operation: 'listTemplates',
    requires: 'otherAccount',
    needs: ['createTemplate.otherAccount'],
    request: () => ({ method: 'GET', path: TEMPLATES, query: { limit: 100 }, key: 'otherAccount' }),
    project: (body, context) => ({ data: ourNames(body, context) }),
    values: ['data'],
    specification: holdsOnly('other'),
  },
  {
    name: 'listTemplates.ownOnly',
    operation: 'listTemplates',
    requires: 'otherAccount',
    needs: ['createTemplate.otherAccount'],
    request: () => ({ method: 'GET', path: TEMPLATES, query: { limit: 100 } }),
    project: oursOnly({}),
    values: ['total', 'data'],
    specification: holdsOnly('this'),
  },
];

export const subUserSteps: readonly Step[] = [
  {
    name: 'getTemplate.subUser',
    operation: 'getTemplate',
    requires: 'subUser',
    needs: ['createTemplate'],
    request: (context) => atTemplate(context, 'general', 'GET', { key: 'subUser' }),
    values: ['name'],
    specification: reachable("reads the owner's templates"),
  },
  {
    name: 'listTemplates.subUser',
    operation: 'listTemplates',
    requires: 'subUser',
    needs: ['listTemplates.limit100'],
    request: () => ({ method: 'GET', path: TEMPLATES, query: { limit: 100 }, key: 'subUser' }),
    project: oursOnly({}),
    values: ['total', 'data'],
    specification: sameTotalForSubUser('listTemplates.limit100'),
  },
];

/** A sub-user's listing counts what the owner's (step `owners`) counted. */
export function sameTotalForSubUser(owners: string) {
  return ({ status, body }: { status: number; body: unknown }, context: ScenarioContext): SpecificationFinding[] => {
    const expected = totalOf(context.answers.get(owners)?.body);
    if (status !== 200) return [{ rule: 'accounts.sub-user', expected: "a sub-user's key lists what the owner's lists", found: `status ${status}` }];
    if (expected === undefined || totalOf(body) === expected) return [];
    return [{ rule: 'accounts.sub-user', expected: `total ${expected}, as the owner's key lists`, found: `total ${shownValue((body as { total?: unknown }).total)}` }];
  };
}
