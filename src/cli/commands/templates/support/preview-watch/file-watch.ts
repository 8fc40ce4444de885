import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Saves closer together than this are one save: an editor writes a file in several steps. */
const SETTLE_MS = 50;

export interface WatchSources {
  /** The folder's change events (default true): a save is seen at once. */
  events?: boolean;
  /** How often the file's identity is looked at besides (default 1000 ms): what a missed event costs at most. */
  pollMs?: number;
}

/**
 * Calls `saved` after each save of `file`, however the editor saves: in place, by writing
 * another file and renaming it over (vim's backupcopy, VS Code's atomic writes), or by deleting
 * and creating it. The folder is watched rather than the file, whose inode a rename replaces,
 * and the file's identity is polled as well, for file systems that send no events (network
 * mounts) and for a folder itself replaced. `saved` never runs twice at once: saves during a
 * run make one more run after it.
 */
export function watchSavedFile(file: string, saved: () => Promise<void>, sources: WatchSources = {}): { close(): void } {
  const name = basename(file);
  let settle: NodeJS.Timeout | undefined;
  let seen = identity(file);
  const run = serialised(saved);
  const changed = () => {
    clearTimeout(settle);
    settle = setTimeout(() => {
      seen = identity(file);
      run();
    }, SETTLE_MS);
  };

  let watcher: FSWatcher | undefined;
  const watchFolder = (): FSWatcher | undefined => {
    if (sources.events === false) return undefined;
    try {
      const folder = watch(dirname(file), { persistent: false }, (_event, changedName) => {
        if (changedName === null || changedName === name) changed();
      });
      // A folder removed or unmounted: the poll carries on, and watches it again when it is back.
      folder.on('error', () => {
        folder.close();
        watcher = undefined;
      });
      return folder;
    } catch {
      return undefined;
    }
  };
  watcher = watchFolder();
  const poll = setInterval(() => {
    watcher ??= watchFolder();
    const now = identity(file);
    if (now === seen) return;
    seen = now;
    changed();
  }, sources.pollMs ?? 1000).unref();

  return {
    close() {
      clearTimeout(settle);
      clearInterval(poll);
      watcher?.close();
      run.stop();
    },
  };
}

/** What tells one version of the file from the next without reading it. */
function identity(file: string): string {
  try {
    const stat = statSync(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}

/** `run` one at a time: a call while it runs makes one more run after it, however many calls came. */
function serialised(run: () => Promise<void>): { (): void; stop(): void } {
  let [running, again, stopped] = [false, false, false];
  const start = async () => {
    running = true;
    do {
      again = false;
      // `saved` says its own failures; one must not stop the saves after it from being seen.
      await run().catch(() => undefined);
    } while (again && !stopped);
    running = false;
  };
  return Object.assign(
    () => {
      if (stopped) return;
      if (running) again = true;
      else void start();
    },
    { stop: () => void (stopped = true) },
  );
}
