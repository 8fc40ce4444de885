import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError, ExitCode } from '../cmdutil/errors.js';

/**
 * Written whole or not at all: into a temporary file beside the target, then renamed over it,
 * so a failure (a full disk, Ctrl-C) never leaves half a file where a whole one was expected.
 * The temporary file is removed on failure; the error is the caller's.
 */
export async function replaceFile(file: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { flag: 'wx', ...(mode !== undefined ? { mode } : {}) });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `replaceFile` for a file the user named with `flag`: a failure is a one-line CLI error. */
export async function writeFileAtomically(file: string, data: string | Uint8Array, flag: string, mode?: number): Promise<void> {
  try {
    await replaceFile(file, data, mode);
  } catch (error) {
    throw new CliError(`${flag}: cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.failed);
  }
}
