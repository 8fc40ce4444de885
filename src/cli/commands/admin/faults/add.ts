import { InvalidArgumentError } from '../../../cmdutil/typed-commander.js';
import type { Wrap } from '../../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../../cmdutil/verb.js';
import type { CliDeps } from '../../../cmdutil/context.js';
import { integerOption } from '../../../cmdutil/option-parsers.js';
import { print } from '../support/print.js';
import { withDb, withStore } from '../support/store.js';

const rateOption = (text: string): number => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidArgumentError('expected a chance from 0 to 1.');
  }
  return value;
};

const verb = (faults: Parent) =>
  withDb(faults.command('add'))
    .description('Add a fault; a running server applies it from its next request')
    .requiredOption('--route <route>', "'METHOD /path': a method or *, and a path, a route (/api/v2/templates/:id) or a prefix ending in *")
    .option('--status <code>', 'respond with this status instead (429, 500, 502, 503, 504)', integerOption(100, 599))
    .option('--latency <ms>', 'delay the request this long, then let it run', integerOption(0))
    .option('--reset-connection', 'destroy the connection without a response')
    .option('--rate <0..1>', 'the chance that a matching request is faulted (see serve --seed)', rateOption)
    .option('--count <n>', 'fault only the next N matching requests (default: every one)', integerOption(1))
    .option('--account <id>', "only this account's requests")
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl admin faults add --route 'GET /api/v2/templates' --status 503 --count 2
  $ reportctl admin faults add --route 'POST /api/v2/templates' --status 429 --count 1
  $ reportctl admin faults add --route '* /api/*' --latency 500 --rate 0.5
  $ reportctl admin faults add --route 'GET /api/v2/queue-runs' --reset-connection --count 1

A faulted request has passed the key and rate-limit checks and done nothing else. A 429 carries
Retry-After and the rate-limit headers, a 503 Retry-After; every faulted response has the header
X-Reportctl-Fault with the fault's id. --count is used up exactly, also under concurrent requests.`,
    );
export type AdminFaultsAddOptions = OptionsOf<typeof verb>;

export function registerAdminFaultsAdd(
  faults: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<AdminFaultsAddOptions> = (options) => runAdminFaultsAdd(options, deps),
): void {
  bindRun(verb(faults), wrap, runF);
}

export function runAdminFaultsAdd(options: AdminFaultsAddOptions, deps: CliDeps): Promise<void> {
  return withStore(options, deps, (store, _ops, { adminFaults }) => {
    const fault = adminFaults.addFault(
      store,
      adminFaults.newFault({
        route: options.route,
        status: options.status,
        latencyMs: options.latency,
        resetConnection: options.resetConnection,
        rate: options.rate,
        count: options.count,
        accountId: options.account,
      }),
    );
    print(deps, options, fault, `${fault.id}\t${adminFaults.faultSpec(fault)}`);
  });
}
