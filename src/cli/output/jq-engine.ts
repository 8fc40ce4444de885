/**
 * jq itself (jq-web: the jq C sources compiled to WebAssembly), behind one call. Loaded only
 * by `--jq`: compiling its WebAssembly costs more than a whole short command.
 */

import type JqWebReady from 'jq-web';
import { requireJqWeb } from '../iostreams/import-package.js';

/** What one jq run gave: its output, its diagnostics and its exit status, as the jq program's. */
export interface JqRun {
  stdout: string;
  stderr: string;
  /** jq's own: 0, 2 input not JSON, 3 compile error, 5 runtime error. */
  status: number;
}

export interface JqEngine {
  run(input: string, filter: string, flags: readonly string[]): JqRun;
}

type JqWeb = Awaited<typeof JqWebReady>;

type Failure = Error & { exitCode?: number; stderr?: string };

let engine: Promise<JqEngine> | undefined;

export function loadJq(): Promise<JqEngine> {
  engine ??= (async () => {
    return wrap(await requireJqWeb());
  })();
  return engine;
}

function wrap(jq: JqWeb): JqEngine {
  return {
    run(input, filter, flags) {
      // jq-web writes a successful run's diagnostics (`debug`, `stderr`) through console.warn:
      // caught here for the caller. The exit status it leaves on the process is not the
      // command's: main.ts exits with the one runCli returns.
      let warned = '';
      const warn = console.warn;
      console.warn = (...parts: unknown[]) => {
        warned += `${String(parts.at(-1))}\n`;
      };
      try {
        return { stdout: jq.raw(input, filter, [...flags]) ?? '', stderr: warned, status: 0 };
      } catch (error) {
        const failure = error as Failure;
        if (typeof failure.exitCode !== 'number') throw error;
        return { stdout: '', stderr: `${failure.stderr ?? ''}\n`, status: failure.exitCode };
      } finally {
        console.warn = warn;
      }
    },
  };
}
