import { readFileSync } from 'node:fs';
import type { ParseError } from 'jsonc-parser';
import type { CliDeps } from './context.js';
import { UsageError } from './errors.js';
import { readAll } from './io.js';

/** A JSON document from a file (or stdin for `-`), with errors that name the flag. */
export async function readJsonInput(path: string, deps: CliDeps, flag = '--file'): Promise<unknown> {
  let text: string;
  try {
    // One small document, read before anything else runs: read at once, without loading
    // fs/promises and starting libuv's thread pool for it (some 3 ms of a command's start).
    text = path === '-' ? await readAll(deps.io.stdin) : readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parseJsonText(text, `${flag}: ${path === '-' ? 'stdin' : path}`);
}

/**
 * A JSON document, or a usage error that says where it breaks (`line 3, column 9: value
 * expected`): JSON.parse names no line, and on some mistakes no position at all.
 */
export async function parseJsonText(text: string, label: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch (error) {
    const { parse, printParseErrorCode } = await import('jsonc-parser');
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (!first) throw new UsageError(`${label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    const before = text.slice(0, first.offset).split('\n');
    const reason = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    throw new UsageError(`${label} is not valid JSON: line ${before.length}, column ${before.at(-1)!.length + 1}: ${reason}`);
  }
}
