import type { CliDeps } from '../../cmdutil/context.js';
import type * as EmbeddedModule from '../../../embedded.js';
import { asFileError, CliError, CommandFailed, ExitCode, UsageError, type ExitCodeValue } from '../../cmdutil/errors.js';
import { writeLine } from '../../iostreams/io.js';
import { readFileText } from '../../cmdutil/input.js';
import { integerOption, repeatable, secondsOption } from '../../cmdutil/option-parsers.js';
import type { Wrap } from '../../cmdutil/action.js';
import type { OptionsOf, Root, RunF } from '../../cmdutil/verb.js';
import { DASHBOARD_CODE_MINUTES } from '../../../contract/vocabulary.js';
import { GRACE_MS, runShellCommand, statusAfterSignal, type CommandEnd } from './support/exec.js';

/** What `serve --help` prints after the options: examples, --exec's contract, the fault syntax. */
const HELP_AFTER = `
Examples:
  $ reportctl serve --demo
  $ reportctl serve --port 0 --db :memory: --json
  $ reportctl serve --demo --simulate --step-seconds 1
  $ reportctl serve --import fixtures.json --port 0 --json
  $ reportctl serve --db ci.db --export-on-exit state.json
  $ reportctl serve --fault 'GET /api/v2/templates=503x2' --fault '* /api/*=latency:500@0.5' --seed 7
  $ reportctl serve --import fixtures.json --exec 'npm test'
  $ reportctl serve --demo --exec 'reportctl templates list --json' > templates.json

The first line on stdout is "reportctl serve listening on http://HOST:PORT" (with --json, one
JSON object { url, db, keys?, dashboard? }). SIGINT or SIGTERM finish the requests in flight and stop.
With --exec, the service starts (on a free port unless --port), the command runs with /bin/sh
(POSIX sh, not bash: wrap bash syntax in bash -c) with REPORTCTL_BASE_URL set (with --demo also REPORTCTL_API_KEY, the owner key), and when
it ends the service stops (--export-on-exit is written) and serve exits with the command's
status (128+N after signal N). stdout is the command's; nothing of serve's goes there. A
service that cannot start exits 1 and the command never runs. SIGINT or SIGTERM is passed on
to the command, then the service stops and serve exits 130 or 143. Off a terminal, what the
command leaves running in its process group gets SIGTERM, then SIGKILL after ${GRACE_MS / 1000} s.
The dashboard is at http://HOST:PORT/; with --demo, the "dashboard:" line (stdout) is its URL
with a one-time code (#code=…) that the page trades for the owner key: it works once, within
${DASHBOARD_CODE_MINUTES} minutes, and then the page asks for the key. No URL ever holds a key.
Requests addressed (Host header) to a name other than localhost, a loopback address, --host
or an --allow-host name are refused with 400, so a page on another site cannot reach the
service by pointing its own name here (DNS rebinding).

--fault METHOD /PATH=ACTION[xCOUNT][@RATE][#ACCOUNT]
  METHOD    GET, POST, PUT, DELETE or * (any)
  PATH      as requested (/api/v2/templates), a route (/api/v2/templates/:id), or a prefix ending in *
  ACTION    429, 500, 502, 503 or 504 (the response instead of the request's), latency:MS (a
            delay, then the request), or reset (the connection is destroyed without a response)
  xCOUNT    only the next COUNT matching requests (default: every one)
  @RATE     each matching request with this chance, 0 to 1 (see --seed)
  #ACCOUNT  only requests with a key of this account
Faults act after the key and rate-limit checks, before the request does anything. The same as
\`reportctl admin faults add\`, which also reaches a running server.`;

const verb = (program: Root) =>
  program
    .command('serve')
    .description('Run the whole service on SQLite, for offline work, demos and CI')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--allow-host <name>', 'also serve requests addressed to this host name, repeatable (loopback names and --host always)', repeatable, [])
    .option('--port <port>', 'port (0 takes a free one)', integerOption(0, 65535), 4747)
    .option('--db <path>', 'database file (`:memory:` keeps nothing; default: the user data directory)')
    .option('--demo', 'also create a demo account with keys (printed once), templates, queues and runs')
    .option('--simulate', 'advance queue runs in real time')
    .option('--step-seconds <s>', 'with --simulate, seconds per life-cycle step', secondsOption(0.01), 2)
    .option('--reads-per-minute <n>', 'read limit per account', integerOption(1), 120)
    .option('--writes-per-minute <n>', 'write limit per account', integerOption(1), 30)
    .option('--rate-window-seconds <s>', 'the rolling window both limits count over', secondsOption(1), 60)
    .option('--max-in-flight <n>', "requests of one account served at once; more get 429 (default: no cap, memory is bounded by bytes)", integerOption(1))
    .option('--no-access-log', 'no access-log line per request on stderr')
    .option('--import <file>', 'load this snapshot (`admin export`) at start; without --db, into :memory:')
    .option('--export-on-exit <file>', 'write a snapshot here at a clean shutdown (SIGINT/SIGTERM, or after --exec), atomically')
    .option('--fault <spec>', 'inject a fault, repeatable (syntax below)', repeatable, [])
    .option('--seed <n>', 'seed of the random source of faults with a rate (@RATE)', integerOption(0, 2 ** 32 - 1))
    .option('--exec <command>', 'run this command with /bin/sh against the service (a free port unless --port), then stop; exit with its status')
    .addHelpText('after', HELP_AFTER);
export type ServeOptions = OptionsOf<typeof verb>;

export function registerServe(program: Root, deps: CliDeps, wrap: Wrap, runF: RunF<ServeOptions> = (options) => runServe(options, deps)): void {
  const command = verb(program);
  command.action(
    wrap(async () => {
      const options = command.optsWithGlobals();
      const freePort = options.exec !== undefined && command.getOptionValueSource('port') === 'default';
      return runF(freePort ? { ...options, port: 0 } : options);
    }),
  );
}

/**
 * Hidden knobs for the robustness tests (test/robustness), read from the environment so they
 * stay out of --help: shorter request/header deadlines (the server's own defence against slow
 * clients) and a size cap that fakes a full disk. What users want of a fixture (a shorter
 * rate window, faults, slow responses) are options.
 */
function testHooks(env: CliDeps['env']): { requestTimeoutMs?: number; headersTimeoutMs?: number; maxPageCount?: number } {
  const positive = (name: string) => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  return {
    requestTimeoutMs: positive('REPORTCTL_REQUEST_TIMEOUT_MS'),
    headersTimeoutMs: positive('REPORTCTL_HEADERS_TIMEOUT_MS'),
    maxPageCount: positive('REPORTCTL_TEST_MAX_PAGE_COUNT'),
  };
}

type Embedded = typeof EmbeddedModule;
type Server = Awaited<ReturnType<Embedded['startServer']>>;

export async function runServe(options: ServeOptions, deps: CliDeps): Promise<ExitCodeValue> {
  const embedded = await import('../../../embedded.js');
  const server = await start(embedded, options, deps);
  if (options.exec !== undefined) return execAgainst(server, options.exec, deps);
  announce(server, options, deps);
  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) return resolve();
    deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await stop(server);
  return ExitCode.ok;
}

/** The service up and listening, or a one-line error saying why not. */
async function start(embedded: Embedded, options: ServeOptions, deps: CliDeps): Promise<Server> {
  const { startServer, defaultDatabasePath, adminFaults, AdminError, servingHooks } = embedded;
  // A fixture loaded at start is what the run wants, not the data directory's database.
  const dbPath = options.db ?? (options.import !== undefined ? ':memory:' : defaultDatabasePath(deps.env));
  let faults;
  try {
    faults = options.fault.map((spec) => adminFaults.parseFaultSpec(spec));
  } catch (error) {
    if (error instanceof AdminError) throw new UsageError(error.message);
    throw error;
  }
  // Read before anything starts: a file that cannot be read is the user's to fix (exit 2).
  const importing = options.import === undefined ? undefined : { text: readFileText(options.import, '--import'), source: options.import };
  const { port } = options;
  try {
    return await startServer({
      host: options.host,
      allowHosts: options.allowHost,
      port,
      dbPath,
      demo: options.demo === true,
      ...(options.simulate ? { simulateStepMs: Math.round(options.stepSeconds * 1000) } : {}),
      readsPerMinute: options.readsPerMinute,
      writesPerMinute: options.writesPerMinute,
      ...(options.accessLog ? { accessLog: (line: string) => writeLine(deps.io.stderr, line) } : {}),
      warn: (message: string) => writeLine(deps.io.stderr, message),
      errorLog: (error: unknown) =>
        writeLine(deps.io.stderr, `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      rateWindowMs: Math.round((options.rateWindowSeconds ?? 60) * 1000),
      ...(options.maxInFlight !== undefined ? { maxInFlightPerAccount: options.maxInFlight } : {}),
      ...servingHooks({ dbPath, importing, exportOnExit: options.exportOnExit, faults }),
      ...(options.seed !== undefined ? { faultSeed: options.seed } : {}),
      ...testHooks(deps.env),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new CliError(`port ${port} on ${options.host} is already in use`, ExitCode.failed, 'use --port 0 for a free port (the first line says which)');
    }
    // The file system's refusal in words, naming --db when the path came from it.
    const fileError = asFileError(error, dbPath, { action: 'open', exitCode: ExitCode.failed, ...(options.db !== undefined ? { flag: '--db' } : {}) });
    if (fileError !== error) throw fileError;
    throw new CliError(`cannot start the service: ${error instanceof Error ? error.message : String(error)}`, ExitCode.failed);
  }
}

/** `--exec`: the command runs against the service, then the service stops; serve exits with the command's status. */
async function execAgainst(server: Server, command: string, deps: CliDeps): Promise<ExitCodeValue> {
  const keys = server.demoKeys;
  writeLine(deps.io.stderr, `reportctl serve listening on ${server.url}; running: ${command}`);
  if (keys) noteRevokedKeys(keys.revokedKeys, 'only the key given to the command is valid', deps);
  const ran = await runCommandAgainst(command, server.url, keys?.ownerKey, deps).then(
    (end) => ({ end }),
    (error: unknown) => ({ error }),
  );
  await stop(server);
  if ('error' in ran) throw new CliError(`cannot run the command: ${ran.error instanceof Error ? ran.error.message : String(ran.error)}`, ExitCode.failed);
  if (ran.end === undefined) return ExitCode.interrupted;
  const { status, signal } = ran.end;
  const received = deps.signal.aborted ? signalNamed(deps.signal.reason) : undefined;
  // Stopped by a signal, serve reports that signal, whatever the command made of it.
  if (received !== undefined && status !== statusAfterSignal(received)) {
    throw new CommandFailed(statusAfterSignal(received), `stopped by ${received}; the command then exited with status ${status}`);
  }
  if (status !== 0) throw new CommandFailed(status, signal ? `the command was ended by ${signal} (status ${status})` : `the command exited with status ${status}`);
  return ExitCode.ok;
}

/** Where the service is (stdout: the data) and, with --demo, its keys; hints on stderr. */
function announce(server: Server, options: ServeOptions, deps: CliDeps): void {
  const keys = server.demoKeys;
  // A code, never the key: the browser keeps every URL it loads in its history.
  const dashboard = server.dashboardCode !== undefined ? `${server.url}/#code=${server.dashboardCode}` : undefined;
  if (options.json) {
    const line: Record<string, unknown> = { url: server.url, db: server.dbPath };
    if (keys) line.keys = { accountId: keys.accountId, owner: keys.ownerKey, subUser: keys.subUserKey };
    if (dashboard) line.dashboard = dashboard;
    writeLine(deps.io.stdout, JSON.stringify(line));
  } else {
    writeLine(deps.io.stdout, `reportctl serve listening on ${server.url}`);
    if (keys) {
      writeLine(deps.io.stdout, `demo account ${keys.accountId}`);
      writeLine(deps.io.stdout, `owner key:    ${keys.ownerKey}`);
      writeLine(deps.io.stdout, `sub-user key: ${keys.subUserKey}`);
      if (dashboard) writeLine(deps.io.stdout, `dashboard:    ${dashboard}`);
      // stderr is the access-log stream, which gets shipped to log collectors: no key there.
      writeLine(deps.io.stderr, `keys are shown once, above; try: curl -H 'apiKey: <owner key>' ${server.url}/api/v2/templates`);
      if (dashboard) {
        writeLine(deps.io.stderr, `open the dashboard URL above in a browser within ${DASHBOARD_CODE_MINUTES} minutes; it signs in once, then the page asks for the owner key`);
      }
    } else {
      writeLine(deps.io.stderr, `dashboard: ${server.url}/ (it asks for an API key)`);
    }
    writeLine(deps.io.stderr, `database: ${server.dbPath}`);
  }
  if (keys) noteRevokedKeys(keys.revokedKeys, 'only the keys above are valid', deps);
}

function signalNamed(reason: unknown): 'SIGINT' | 'SIGTERM' | undefined {
  return reason === 'SIGINT' || reason === 'SIGTERM' ? reason : undefined;
}

/** `--demo` on an existing database revokes the demo account's earlier keys: said on stderr, never silently. */
function noteRevokedKeys(revoked: number, stillValid: string, deps: CliDeps): void {
  if (revoked === 0) return;
  writeLine(deps.io.stderr, `revoked the demo account's ${revoked} earlier ${revoked === 1 ? 'key' : 'keys'}; ${stillValid}`);
}

/** Finishes the requests in flight, writes --export-on-exit, closes the database. */
async function stop(server: { close(): Promise<void> }): Promise<void> {
  try {
    await server.close();
  } catch (error) {
    throw new CliError(`stopped, but ${error instanceof Error ? error.message : String(error)}`, ExitCode.failed);
  }
}

/** `--exec`: the command, told where the service is; undefined when interrupted before it started. */
async function runCommandAgainst(command: string, url: string, ownerKey: string | undefined, deps: CliDeps): Promise<CommandEnd | undefined> {
  if (deps.signal.aborted) return undefined;
  const env = { ...deps.env, REPORTCTL_BASE_URL: url, ...(ownerKey !== undefined ? { REPORTCTL_API_KEY: ownerKey } : {}) };
  return runShellCommand(command, { env, signal: deps.signal, ownGroup: !deps.io.isStdinTTY(), sleep: (ms, signal) => deps.clock.sleep(ms, signal), ...(deps.atExit ? { atExit: deps.atExit } : {}) });
}
