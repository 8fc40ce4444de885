import type { CliDeps } from '../../../cmdutil/context.js';
import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { writeLine } from '../../../iostreams/io.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import { AnswerWatch } from './answer-watch.js';
import { traitsOf, type ServiceTraits } from './fresh-serve.js';
import { KeptBytes } from './kept.js';
import { PREFIX_FAMILY } from './normalise.js';
import { PacedService, type Keys } from './paced.js';
import { CLEANUP_MS, cleanUp, cleanupReserve, deleteTemplates, listTemplates, newContext, runScenario } from './run.js';
import type { Finding, KeyUse, ListedTemplate, OptionalKey, ScenarioContext, Step, StepOutcome } from './step.js';
import { survey } from './survey.js';

export interface TargetRun {
  outcomes: Map<string, StepOutcome>;
  traits: ServiceTraits;
  /** Requests sent to the target, cleanup included. */
  requests: number;
  /** Milliseconds waited for the target's rate limits. */
  waited: number;
  interrupted: boolean;
  /** What the run created and could not delete, each named. */
  leftBehind: string[];
  /** The target's answers against the specification. */
  specification: Finding[];
  notChecked: string[];
}

export interface Target {
  baseUrl: string;
  keys: Keys;
  budget: number;
  deadline: number;
  cleanup: boolean;
  steps: readonly Step[];
  /** The operations asked for with --only (none: all). */
  operations: readonly string[];
}

const keyFlag: Record<KeyUse, string> = { account: 'the key', subUser: '--sub-user-key', otherAccount: '--other-account-key', none: '', wrong: '' };

/** Says each wait for the target's rate limits: counted down on a terminal, one line otherwise. */
function waitNotice(deps: CliDeps): (ms: number, why: string) => void {
  return (ms, why) => {
    const text = (left: number) => `parity: waiting ${Math.ceil(left / 1000)} s for the target: ${why}`;
    if (deps.io.isStderrTTY()) deps.io.progress.countdown(text, ms, deps.clock);
    else writeLine(deps.io.stderr, text(ms));
  };
}

/**
 * The templates an account holds before the run, by key. An earlier run's (named
 * reportctl-parity-…) stop the run unless `cleanup`, which deletes them first.
 */
async function heldBefore(service: PacedService, key: KeyUse, cleanup: boolean, deps: CliDeps): Promise<Required<ListedTemplate>[] | undefined> {
  const listed = await listTemplates(service, key);
  if ('failed' in listed) {
    if (listed.status === 401) throw new CliError(`the service refused ${keyFlag[key]} (${listed.failed})`, ExitCode.auth, 'pass the keys of a sandbox account');
    if (deps.signal.aborted) return undefined;
    throw new CliError(`cannot list the account's templates before starting: ${listed.failed}`, ExitCode.failed);
  }
  const earlier = listed.filter((template) => template.name.startsWith(PREFIX_FAMILY));
  if (earlier.length === 0) return listed;
  const names = earlier.slice(0, 3).map((template) => `"${escapeControls(template.name)}"`).join(', ');
  const whose = key === 'account' ? 'the account' : "the other account (--other-account-key)";
  if (!cleanup) throw new CliError(`${whose} holds ${earlier.length} templates left by an earlier parity run (${names}${earlier.length > 3 ? ', …' : ''})`, ExitCode.failed, 'pass --cleanup to delete them first');
  const left = await deleteTemplates(service, earlier.map((template) => ({ id: template.id, key })), deps.clock.now() + CLEANUP_MS);
  if (left.length > 0) throw new CliError(`could not delete ${left.length} of the ${earlier.length} templates left by an earlier run: ${left.map(escapeControls).join(', ')}`, ExitCode.failed);
  writeLine(deps.io.stderr, `deleted ${earlier.length} templates left by an earlier parity run from ${whose}`);
  return listed.filter((template) => !template.name.startsWith(PREFIX_FAMILY));
}

/** Reads what the accounts hold before the run into `context`; false when interrupted. */
async function readHeld(service: PacedService, context: ScenarioContext, target: Target, deps: CliDeps): Promise<boolean> {
  const held = new Set<string>();
  for (const key of ['account', ...(context.keys.has('otherAccount') ? ['otherAccount'] : [])] as KeyUse[]) {
    const listed = await heldBefore(service, key, target.cleanup, deps);
    if (listed === undefined) return false;
    for (const template of listed) held.add(template.id);
    if (key === 'account') context.before = listed;
  }
  context.heldIds = held;
  return true;
}

/**
 * The scenario against the target, then the survey of what it holds: refuses an account
 * holding an earlier run's templates (or deletes them first with `cleanup`), and deletes
 * what this run created however it ends.
 */
export async function runAgainstTarget(target: Target, deps: CliDeps): Promise<TargetRun> {
  const keys = new Set((['otherAccount', 'subUser'] as OptionalKey[]).filter((key) => target.keys[key] !== undefined));
  const context = newContext(Math.random, keys);
  const watch = new AnswerWatch('target');
  const service = new PacedService(
    { baseUrl: target.baseUrl, keys: target.keys, clock: deps.clock, budget: target.budget, deadline: target.deadline, signal: deps.signal, whose: "the target's answers", observe: (request, answer, at) => watch.observe(request, answer, at), onWait: waitNotice(deps), ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}) },
    cleanupReserve(context),
  );
  const run: TargetRun = { outcomes: new Map(), traits: traitsOf(context), requests: 0, waited: 0, interrupted: false, leftBehind: [], specification: [], notChecked: [] };
  if (!(await readHeld(service, context, target, deps))) return { ...run, requests: service.sent, interrupted: true };
  const side = { kept: new KeptBytes("the target's answers"), findings: [] as Finding[], side: 'target' as const };
  try {
    run.outcomes = await runScenario(service, context, target.steps, side);
    const surveyed = await survey(service, 'target', target.operations);
    run.specification.push(...surveyed.findings);
    run.notChecked.push(...surveyed.notChecked);
  } finally {
    deps.io.progress.stop();
    run.leftBehind = await cleanUp(service, context, deps.clock.now).catch((error: unknown) => [`this run's templates (${error instanceof Error ? error.message : String(error)})`]);
    if (run.leftBehind.length > 0) {
      writeLine(deps.io.stderr, `left on the target: ${run.leftBehind.map(escapeControls).join(', ')}; \`reportctl parity --cleanup\` deletes them next time`);
    }
  }
  if (deps.signal.aborted) writeLine(deps.io.stderr, `interrupted; the templates this run created on the target are ${run.leftBehind.length > 0 ? 'not all deleted' : 'deleted'}`);
  run.specification.unshift(...side.findings, ...watch.findings());
  return { ...run, traits: traitsOf(context), requests: service.sent, waited: service.waited, interrupted: deps.signal.aborted };
}
