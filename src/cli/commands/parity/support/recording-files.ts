// A recording's files are anyone's: a FIFO, a device or a huge file must not hold or swell a
// replay. Each is opened without blocking, must be a regular file, is read no further than
// what a run keeps, and is strict UTF-8; each failure names the file.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { unreadableReason } from '../../../cmdutil/input.js';
import { CliError, ExitCode, NOT_UTF8_HINT } from '../../../cmdutil/errors.js';
import { decodeUtf8, NotUtf8Error } from '../../../../encoding/utf8.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import { AnswersTooLarge, type KeptBytes, MAX_KEPT_BYTES } from './kept.js';

/** Strict UTF-8, or an error naming the file and the byte where it breaks. */
function decoded(bytes: Uint8Array, file: string): string {
  try {
    return decodeUtf8(bytes);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    throw new CliError(`${escapeControls(file)} is ${error.message}`, ExitCode.usage, NOT_UTF8_HINT);
  }
}

/** The file's bytes, no further than the cap however it grows while read. */
async function readCapped(handle: FileHandle, file: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > MAX_KEPT_BYTES) throw new AnswersTooLarge(`the recording's file ${escapeControls(file)}`, 'reading it');
  }
}

/**
 * A recording file's text; undefined for a missing one when `missingOk`. Counted against
 * `kept` when given: a recording is held to what a run keeps.
 */
export async function readRecordingText(file: string, options: { missingOk?: boolean; kept?: KeptBytes } = {}): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.missingOk) return undefined;
    throw new CliError(`cannot read ${escapeControls(file)}: ${unreadableReason(error)}`, code === 'ENOENT' ? ExitCode.notFound : ExitCode.usage);
  }
  try {
    const status = await handle.stat();
    if (!status.isFile()) throw new CliError(`${escapeControls(file)} is not a regular file (a folder, FIFO, socket or device)`, ExitCode.usage, 'a recording holds only the files parity --record wrote');
    if (status.size > MAX_KEPT_BYTES) throw new AnswersTooLarge(`the recording's file ${escapeControls(file)}`, 'reading it');
    const bytes = await readCapped(handle, file);
    options.kept?.charge(bytes.length, file);
    return decoded(bytes, file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${escapeControls(file)}: ${unreadableReason(error)}`, ExitCode.usage);
  } finally {
    await handle.close();
  }
}
