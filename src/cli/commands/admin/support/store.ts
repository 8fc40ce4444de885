import type { Command, OptionValues } from '../../../cmdutil/typed-commander.js';
import type * as AdminOperations from '../../../../admin/operations.js';
import type * as EmbeddedModule from '../../../../embedded.js';
import type { Store } from '../../../../server/store/index.js';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { asFileError, CliError, ExitCode } from '../../../cmdutil/errors.js';

export interface AdminOptions extends GlobalOptions {
  db?: string;
}

export type Admin = typeof AdminOperations;
/** The embedded bundle, for verbs that need more than the operations (snapshots, faults). */
export type Embedded = typeof EmbeddedModule;

/** Loads the embedded bundle (server modules load only for `serve` and `admin`). */
export const loadEmbedded = (): Promise<Embedded> => import('../../../../embedded.js');

/** An AdminError as the CLI's error: not found 4, invalid 2, anything else 1. */
export function adminFailure(error: unknown, embedded: Embedded): unknown {
  if (!(error instanceof embedded.AdminError)) return error;
  const code = error.kind === 'not-found' ? ExitCode.notFound : error.kind === 'invalid' ? ExitCode.usage : ExitCode.failed;
  return new CliError(error.message, code);
}

/**
 * Opens the database file (whether or not a server is running on it), runs one operation,
 * and closes it. Server modules load only here, never for other commands.
 */
export async function withStore<R>(
  options: AdminOptions,
  deps: CliDeps,
  operation: (store: Store, admin: Admin, embedded: Embedded) => Promise<R> | R,
): Promise<R> {
  const embedded = await loadEmbedded();
  const { openStore, defaultDatabasePath, adminOperations: admin } = embedded;
  let store: Store;
  try {
    store = openStore(options.db ?? defaultDatabasePath(deps.env));
  } catch (error) {
    throw databaseFailure(error, options.db ?? defaultDatabasePath(deps.env), options.db);
  }
  try {
    return await operation(store, admin, embedded);
  } catch (error) {
    throw adminFailure(error, embedded);
  } finally {
    store.close();
  }
}

export const withDb = <Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) =>
  command.option('--db <path>', 'database file (default: the user data directory, as `serve`)');

/** A database that cannot be opened: the file system's refusal in words, naming --db when the path came from it. */
function databaseFailure(error: unknown, path: string, flagValue: string | undefined): unknown {
  const asFile = asFileError(error, path, { action: 'open', exitCode: ExitCode.failed, ...(flagValue !== undefined ? { flag: '--db' } : {}) });
  if (asFile !== error) return asFile;
  return new CliError(error instanceof Error ? error.message : String(error), ExitCode.failed);
}
