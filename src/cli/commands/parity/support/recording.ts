import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, ExitCode, UsageError } from '../../../cmdutil/errors.js';
import { replaceFile } from '../../../output/output-file.js';
import type { ServiceTraits } from './fresh-serve.js';
import { stableJson } from '../../../output/stable-json.js';
import type { StepOutcome } from './run.js';
import type { Step } from './context.js';
import { parseIgnore, type Ignore } from './compare.js';

/** A recording: `service.json` (catalogs and limits), one `NNN-STEP.json` per step, maybe `ignore.txt`. */
const SERVICE_FILE = 'service.json';
const IGNORE_FILE = 'ignore.txt';
const STEP_FILE = /^\d{3}-[\w.-]+\.json$/;

const stepFile = (at: number, name: string) => `${String(at + 1).padStart(3, '0')}-${name}.json`;

/** Writes the target's normalised answers; step files of an earlier recording are replaced. */
export async function writeRecording(dir: string, steps: readonly Step[], traits: ServiceTraits, outcomes: Map<string, StepOutcome>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const file of await readdir(dir)) if (STEP_FILE.test(file)) await rm(join(dir, file));
  await replaceFile(join(dir, SERVICE_FILE), `${stableJson(traits)}\n`);
  for (const [at, step] of steps.entries()) {
    const outcome = outcomes.get(step.name) ?? { unanswered: 'not run' };
    await replaceFile(join(dir, stepFile(at, step.name)), `${stableJson({ operation: step.operation, step: step.name, ...outcome })}\n`);
  }
}

export interface Recording {
  traits: ServiceTraits;
  outcomes: Map<string, StepOutcome>;
  ignores: Ignore[];
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, code === 'ENOENT' ? ExitCode.notFound : ExitCode.failed);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not JSON`, ExitCode.failed);
  }
}

/** A recording's steps by name; a step of the scenario with no file is not comparable. */
export async function readRecording(dir: string): Promise<Recording> {
  const traits = (await readJson(join(dir, SERVICE_FILE))) as ServiceTraits;
  if (typeof traits !== 'object' || traits === null || typeof traits.catalogs !== 'object') throw new CliError(`${join(dir, SERVICE_FILE)} is not a parity recording`, ExitCode.failed);
  const outcomes = new Map<string, StepOutcome>();
  for (const file of (await readdir(dir)).filter((name) => STEP_FILE.test(name))) {
    const recorded = (await readJson(join(dir, file))) as { step?: unknown } & StepOutcome;
    if (typeof recorded.step !== 'string' || !('answer' in recorded || 'unanswered' in recorded)) throw new CliError(`${join(dir, file)} is not a recorded step`, ExitCode.failed);
    outcomes.set(recorded.step, 'answer' in recorded ? { answer: recorded.answer } : { unanswered: recorded.unanswered });
  }
  return { traits, outcomes, ignores: await readIgnoreFile(join(dir, IGNORE_FILE), false) };
}

/** One ignore a line; `#` starts a comment. A missing file is none, unless it was named. */
export async function readIgnoreFile(file: string, named: boolean): Promise<Ignore[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!named && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, ExitCode.failed);
  }
  return text.split('\n').flatMap((line, at) => {
    const entry = line.replace(/#.*/, '').trim();
    if (entry === '') return [];
    const ignore = parseIgnore(entry);
    if (!ignore) throw new UsageError(`${file}:${at + 1}: expected OPERATION:PATH, got \`${entry}\``);
    return [ignore];
  });
}
