import type { NewFault } from '../contract/faults.js';
import type { ServerOptions } from '../server/listen.js';
import { addFault } from './faults.js';
import { checkSnapshotTarget, exportSnapshot, importSnapshot, parseSnapshotText, writeSnapshotFile } from './snapshot.js';

export interface ServingAdministration {
  /** Where the database is, to name it in an error. */
  dbPath: string;
  /** A snapshot loaded at start, into a database without accounts: its text and where it came from. */
  importing?: { text: string; source: string } | undefined;
  /** Where a snapshot is written at a clean shutdown (atomically). */
  exportOnExit?: string | undefined;
  /** Faults added at start, after the import. */
  faults?: readonly NewFault[] | undefined;
}

/**
 * What `serve --import`, `--fault` and `--export-on-exit` add to a start, as the server's
 * hooks. The export's target is checked now, before the server opens anything.
 */
export function servingHooks(options: ServingAdministration): Pick<ServerOptions, 'prepare' | 'beforeClose'> {
  const { importing, exportOnExit } = options;
  if (exportOnExit !== undefined) checkSnapshotTarget(exportOnExit);
  return {
    prepare: (store) => {
      if (importing !== undefined) {
        const snapshot = parseSnapshotText(importing.text, importing.source);
        if (store.snapshots.hasAccounts()) {
          throw new Error(
            `--import: ${options.dbPath} already has accounts; serve the snapshot from :memory: (leave out --db) or an empty file, or replace them with \`reportctl admin import --replace\``,
          );
        }
        importSnapshot(store, snapshot, { source: importing.source });
      }
      for (const fault of options.faults ?? []) addFault(store, fault);
    },
    // After the requests in flight: every acknowledged write is in it.
    ...(exportOnExit !== undefined ? { beforeClose: (store) => writeSnapshotFile(exportOnExit, exportSnapshot(store)) } : {}),
  };
}
