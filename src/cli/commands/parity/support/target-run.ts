import type { CliDeps } from '../../../cmdutil/context.js';
import { CliError, ExitCode } from '../../../cmdutil/errors.js';
import { writeLine } from '../../../iostreams/io.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import { traitsOf, type ServiceTraits } from './fresh-serve.js';
import { PREFIX_FAMILY } from './normalise.js';
import { PacedService } from './paced.js';
import type { Step } from './context.js';
import { CLEANUP_MS, cleanUp, cleanupReserve, deleteTemplates, listTemplates, newContext, runScenario, type StepOutcome } from './run.js';

export interface TargetRun {
  outcomes: Map<string, StepOutcome>;
  traits: ServiceTraits;
  /** Requests sent to the target, cleanup included. */
  requests: number;
  interrupted: boolean;
  /** What the run created and could not delete (ids, or what a sweep could not reach). */
  leftBehind: string[];
}

/**
 * The scenario against the target: refuses an account holding an earlier run's templates
 * (or deletes them first with `cleanup`), and deletes what this run created however it ends.
 */
export async function runAgainstTarget(
  target: { baseUrl: string; apiKey: string; budget: number; deadline: number; cleanup: boolean; steps: readonly Step[] },
  deps: CliDeps,
): Promise<TargetRun> {
  const context = newContext(Math.random);
  const service = new PacedService(
    { baseUrl: target.baseUrl, apiKey: target.apiKey, clock: deps.clock, budget: target.budget, deadline: target.deadline, signal: deps.signal, ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}) },
    cleanupReserve(context),
  );
  const listed = await listTemplates(service);
  if ('failed' in listed) {
    if (listed.status === 401) throw new CliError(`the service refused the key (${listed.failed})`, ExitCode.auth, 'pass the key of a sandbox account with --api-key or REPORTCTL_API_KEY');
    if (deps.signal.aborted) return { outcomes: new Map(), traits: traitsOf(context), requests: service.sent, interrupted: true, leftBehind: [] };
    throw new CliError(`cannot list the account's templates before starting: ${listed.failed}`, ExitCode.failed);
  }
  const earlier = listed.filter((template) => template.name.startsWith(PREFIX_FAMILY));
  if (earlier.length > 0) {
    const names = earlier.slice(0, 3).map((template) => `"${escapeControls(template.name)}"`).join(', ');
    if (!target.cleanup) {
      throw new CliError(`the account holds ${earlier.length} templates left by an earlier parity run (${names}${earlier.length > 3 ? ', …' : ''})`, ExitCode.failed, 'pass --cleanup to delete them first');
    }
    const left = await deleteTemplates(service, earlier.map((template) => template.id), deps.clock.now() + CLEANUP_MS);
    if (left.length > 0) throw new CliError(`could not delete ${left.length} of the ${earlier.length} templates left by an earlier run: ${left.join(', ')}`, ExitCode.failed);
    writeLine(deps.io.stderr, `deleted ${earlier.length} templates left by an earlier parity run`);
  }
  context.before = listed.filter((template) => !template.name.startsWith(PREFIX_FAMILY));
  let outcomes = new Map<string, StepOutcome>();
  let leftBehind: string[] = [];
  try {
    outcomes = await runScenario(service, context, target.steps);
  } finally {
    const created = context.created.size;
    leftBehind = await cleanUp(service, context, deps.clock.now).catch((error: unknown) => [`all ${created} (${error instanceof Error ? error.message : String(error)})`]);
    if (leftBehind.length > 0) {
      writeLine(deps.io.stderr, `could not delete what this run created on the target: ${leftBehind.map(escapeControls).join(', ')}; \`reportctl parity --cleanup\` deletes it next time`);
    }
  }
  if (deps.signal.aborted) writeLine(deps.io.stderr, `interrupted; the templates this run created on the target are ${leftBehind.length > 0 ? 'not all deleted' : 'deleted'}`);
  return { outcomes, traits: traitsOf(context), requests: service.sent, interrupted: deps.signal.aborted, leftBehind };
}
