import { InvalidArgumentError, type Command } from 'commander';
import type { CliDeps } from '../../context.js';
import { writeLine } from '../../io.js';
import { integerOption } from '../../parse.js';
import type { Wrap } from '../../action.js';
import { opts, print, withDb, withStore } from './shared/store.js';

const rateOption = (text: string): number => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new InvalidArgumentError('expected a chance from 0 to 1.');
  }
  return value;
};

/** `admin faults add|list|clear`: injected faults a running server applies from its next request. */
export function registerAdminFaults(admin: Command, deps: CliDeps, wrap: Wrap): void {
  const faults = admin.command('faults').description('Injected faults: errors, slow answers, reset connections (for testing clients)');

  withDb(faults.command('add'))
    .description('Add a fault; a running server applies it from its next request')
    .requiredOption('--route <route>', "'METHOD /path': a method or *, and a path, a route (/api/v2/templates/:id) or a prefix ending in *")
    .option('--status <code>', 'answer with this status instead (429, 500, 502, 503, 504)', integerOption(100, 599))
    .option('--latency <ms>', 'delay the request this long, then let it run', integerOption(0))
    .option('--reset-connection', 'destroy the connection without an answer')
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
Retry-After and the rate-limit headers, a 503 Retry-After; every faulted answer has the header
X-Reportctl-Fault with the fault's id. --count is used up exactly, also under concurrent requests.`,
    )
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store, _ops, { adminFaults }) => {
          const fault = adminFaults.addFault(
            store,
            adminFaults.newFault({
              route: options.route as string,
              status: options.status as number | undefined,
              latencyMs: options.latency as number | undefined,
              resetConnection: options.resetConnection as boolean | undefined,
              rate: options.rate as number | undefined,
              count: options.count as number | undefined,
              accountId: options.account as string | undefined,
            }),
          );
          print(deps, options, fault, `${fault.id}\t${adminFaults.faultSpec(fault)}`);
        });
      }),
    );

  withDb(faults.command('list'))
    .description('List faults, oldest first, with the uses they have left')
    .addHelpText('after', "\nExamples:\n  $ reportctl admin faults list\n  $ reportctl admin faults list --json\n\nEach line: id, the fault in serve --fault's notation (xN: uses left), and 'used up' when none are.")
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store, _ops, { adminFaults }) => {
          const list = store.faults.list();
          const human = list.map((fault) => `${fault.id}\t${adminFaults.faultSpec(fault)}${fault.remaining === 0 ? '\tused up' : ''}`);
          if (options.json || list.length > 0) print(deps, options, list, human.join('\n'));
        });
      }),
    );

  withDb(faults.command('clear'))
    .description('Remove every fault; a running server stops applying them from its next request')
    .addHelpText('after', '\nExample:\n  $ reportctl admin faults clear')
    .action(
      wrap(async (_o: unknown, command: Command) => {
        const options = opts(command);
        return withStore(options, deps, (store) => {
          const removed = store.faults.clear();
          if (options.json) print(deps, options, { removed }, '');
          else writeLine(deps.io.stderr, `removed ${removed} fault${removed === 1 ? '' : 's'}`);
        });
      }),
    );
}
