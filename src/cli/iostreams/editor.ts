import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { decodeUtf8 } from '../../encoding/utf8.js';
import { type Env, type IOStreams } from './io.js';

/** The editor exited with a failing status: what was saved is not trusted. */
export class EditorFailed extends Error {
  constructor(readonly status: number) {
    super(`the editor exited with status ${status}`);
  }
}

/** Where people edit a document; injected so tests edit it in code. */
export interface Editor {
  /** The command that opens files, or undefined when there is none to use. */
  readonly command: string | undefined;
  /**
   * Saves `text` in `file`, opens it, and resolves with what was saved; rejects with
   * EditorFailed, or NotUtf8Error when what was saved is not UTF-8.
   */
  edit(file: string, text: string): Promise<string>;
}

/** $VISUAL, else $EDITOR, else vi on a terminal; run through the shell so it may carry arguments ("code --wait"). */
export function shellEditor(env: Env, io: IOStreams): Editor {
  const command = () => env.VISUAL || env.EDITOR || (io.isStdoutTTY() ? 'vi' : undefined);
  return {
    get command() {
      return command();
    },
    async edit(file, text) {
      await writeFile(file, text, { mode: 0o600 });
      const status = await new Promise<number>((resolve, reject) => {
        const child = spawn(`${command() ?? 'vi'} "${file}"`, { shell: true, stdio: 'inherit' });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code ?? 1));
      });
      if (status !== 0) throw new EditorFailed(status);
      return decodeUtf8(await readFile(file));
    },
  };
}
