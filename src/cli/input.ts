import { readFile } from 'node:fs/promises';
import type { CliDeps } from './context.js';
import { UsageError } from './errors.js';
import { readAll } from './io.js';

/** A JSON document from a file (or stdin for `-`), with errors that name the flag. */
export async function readJsonInput(path: string, deps: CliDeps, flag = '--file'): Promise<unknown> {
  let text: string;
  try {
    text = path === '-' ? await readAll(deps.io.stdin) : await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag}: ${path === '-' ? 'stdin' : path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
