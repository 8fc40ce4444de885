import { readFileSync } from 'node:fs';
import type { ParseError } from 'jsonc-parser';
import type { CliDeps } from './context.js';
import { asFileError, fileErrorIn, fileProblem, UsageError } from './errors.js';
import { readAllBytes } from '../iostreams/io.js';
import { decodeUtf8 } from '../../encoding/utf8.js';

/** A JSON document from a file (or stdin for `-`), with errors that name the flag. */
export async function readJsonInput(path: string, deps: CliDeps, flag = '--file'): Promise<unknown> {
  return parseJsonText(await readInputText(path, deps, flag), `${flag}: ${path === '-' ? 'stdin' : path}`);
}

/**
 * A file's text (or stdin's for `-`), strict UTF-8, with errors in words that name the flag:
 * `cannot read a.json (--file): no such file`, `cannot read stdin (--file): not UTF-8: at byte
 * offset 7 (line 1), 0xF1 begins an incomplete character`. Both are usage errors (exit 2).
 */
export async function readInputText(path: string, deps: CliDeps, flag = '--file'): Promise<string> {
  try {
    return await readText(path, deps);
  } catch (error) {
    throw asFileError(error, path === '-' ? 'stdin' : path, { flag });
  }
}

/**
 * A file's text, or stdin's for `-`, decoded as strict UTF-8 (`decodeUtf8`: a leading byte
 * order mark is dropped, anything else that is not UTF-8 throws NotUtf8Error).
 */
export async function readText(path: string, deps: CliDeps): Promise<string> {
  // One small document, read before anything else runs: read at once, without loading
  // fs/promises and starting libuv's thread pool for it (docs/performance.md).
  return decodeUtf8(path === '-' ? await readAllBytes(deps.io.stdin) : readFileSync(path));
}

/** A file's text (`-` is a file's name here), strict UTF-8, with errors that name the flag. */
export function readFileText(path: string, flag: string): string {
  try {
    return decodeUtf8(readFileSync(path));
  } catch (error) {
    throw asFileError(error, path, { flag });
  }
}

/** Why a file could not be read, in words (`no such file`, not `ENOENT`). */
export function unreadableReason(error: unknown): string {
  return fileProblem(fileErrorIn(error)?.code) ?? (error instanceof Error ? error.message : String(error));
}

/** A JSON document, or a usage error that says where it breaks (see `parseJson`). */
export async function parseJsonText(text: string, label: string): Promise<unknown> {
  const parsed = await parseJson(text);
  if (!parsed.success) throw new UsageError(`${label} is ${parsed.reason}`);
  return parsed.value;
}

/**
 * A JSON document, or why it is not one, saying where it breaks (`not valid JSON: line 3,
 * column 9: value expected`): JSON.parse names no line, and on some mistakes no position at all.
 */
export async function parseJson(text: string): Promise<{ success: true; value: unknown } | { success: false; reason: string }> {
  // "line 1, column 1: value expected" would send people looking for a mistake in nothing.
  if (text.trim() === '') return { success: false, reason: text === '' ? 'an empty file' : 'an empty file (white space only)' };
  try {
    return { success: true, value: JSON.parse(text) };
  } catch (error) {
    const { parse, printParseErrorCode } = await import('jsonc-parser');
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (!first) return { success: false, reason: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
    const before = text.slice(0, first.offset).split('\n');
    const reason = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    return { success: false, reason: `not valid JSON: line ${before.length}, column ${before.at(-1)!.length + 1}: ${reason}` };
  }
}
