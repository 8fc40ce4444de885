import { mkdir, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, ExitCode, UsageError } from '../../../cmdutil/errors.js';
import { escapeControls } from '../../../iostreams/sanitize.js';
import { replaceFile } from '../../../output/output-file.js';
import { stableJson } from '../../../output/stable-json.js';
import { parseIgnore, type Ignore } from './compare.js';
import type { ServiceTraits } from './fresh-serve.js';
import { KeptBytes } from './kept.js';
import { readRecordingText } from './recording-files.js';
import type { Finding, OptionalKey, Step, StepOutcome } from './step.js';

/**
 * A recording: `recording.json` (the manifest: the files it wrote, the keys the run had, what
 * the target's answers said against the specification), `service.json` (the target's
 * catalogs), one `NNN-STEP.json` per step, and the user's `ignore.txt` if any.
 */
const MANIFEST = 'recording.json';
const SERVICE_FILE = 'service.json';
const IGNORE_FILE = 'ignore.txt';
const STEP_FILE = /^\d{3}-[\w.-]+\.json$/;
const FORMAT = 2;
/** Recordings hold what a service answered: readable by their owner only, as the config file. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

const stepFile = (at: number, name: string) => `${String(at + 1).padStart(3, '0')}-${name}.json`;

/** What a live run adds to its recording besides the answers. */
export interface RecordedRun {
  keys: OptionalKey[];
  /** The target's answers against the specification. */
  specification: Finding[];
  notChecked: string[];
}

interface Manifest extends RecordedRun {
  format: number;
  files: string[];
}

/** A folder --record may write into, and the files an earlier recording there wrote. */
export interface RecordingFolder {
  dir: string;
  previous: readonly string[];
}

/**
 * Refuses, before the run, a --record folder that is neither missing, empty (an ignore.txt
 * aside) nor a recording: its files are someone's, and recording replaces only its own.
 */
export async function claimRecordingFolder(dir: string): Promise<RecordingFolder> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { dir, previous: [] };
    throw new UsageError(`--record: cannot use ${escapeControls(dir)}: ${code === 'ENOTDIR' ? 'it is not a folder' : (code ?? String(error))}`);
  }
  if (entries.every((name) => name === IGNORE_FILE)) return { dir, previous: [] };
  if (!entries.includes(MANIFEST)) {
    throw new UsageError(`--record: ${escapeControls(dir)} is neither empty nor a parity recording (it has no ${MANIFEST}); nothing was written`, 'record into a new or empty folder, or into one an earlier --record wrote');
  }
  return { dir, previous: (await readManifest(dir, new KeptBytes('the recording'))).files };
}

async function writeFile(dir: string, name: string, value: unknown): Promise<void> {
  try {
    await replaceFile(join(dir, name), `${stableJson(value)}\n`, FILE_MODE);
  } catch (error) {
    throw new CliError(`--record: cannot write ${escapeControls(join(dir, name))}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, ExitCode.failed);
  }
}

/**
 * Writes the target's normalised answers. The files of the folder's earlier recording that
 * this one does not rewrite are deleted, and nothing else; the manifest is written last.
 */
export async function writeRecording(folder: RecordingFolder, steps: readonly Step[], traits: ServiceTraits, outcomes: Map<string, StepOutcome>, run: RecordedRun): Promise<void> {
  const { dir } = folder;
  await mkdir(dir, { recursive: true, mode: FOLDER_MODE });
  const files = [SERVICE_FILE];
  await writeFile(dir, SERVICE_FILE, traits);
  for (const [at, step] of steps.entries()) {
    const outcome = outcomes.get(step.name) ?? { unanswered: 'not run' };
    files.push(stepFile(at, step.name));
    await writeFile(dir, stepFile(at, step.name), { operation: step.operation, step: step.name, ...outcome });
  }
  for (const name of folder.previous.filter((file) => !files.includes(file))) {
    await unlink(join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw new CliError(`--record: cannot delete ${escapeControls(join(dir, name))} of the earlier recording: ${error.code ?? String(error)}`, ExitCode.failed);
    });
  }
  const manifest: Manifest = { format: FORMAT, files, ...run, specification: run.specification.map(({ side: _side, ...finding }) => finding) as Finding[] };
  await writeFile(dir, MANIFEST, manifest);
}

export interface Recording extends RecordedRun {
  traits: ServiceTraits;
  outcomes: Map<string, StepOutcome>;
  ignores: Ignore[];
}

async function readJson(file: string, kept: KeptBytes): Promise<unknown> {
  const text = (await readRecordingText(file, { kept }))!;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${escapeControls(file)} is not JSON`, ExitCode.failed);
  }
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The manifest, checked: the files it names are a recording's own names, nothing else. */
async function readManifest(dir: string, kept: KeptBytes): Promise<Manifest> {
  const file = join(dir, MANIFEST);
  const manifest = (await readJson(file, kept)) as Partial<Manifest> | null;
  const valid =
    manifest?.format === FORMAT &&
    isStrings(manifest.files) &&
    manifest.files.every((name) => name === SERVICE_FILE || STEP_FILE.test(name)) &&
    isStrings(manifest.keys) &&
    isStrings(manifest.notChecked) &&
    Array.isArray(manifest.specification) &&
    manifest.specification.every((finding) => ['rule', 'step', 'operation', 'expected', 'found'].every((field) => typeof (finding as unknown as Record<string, unknown>)?.[field] === 'string'));
  if (!valid) throw new CliError(`${escapeControls(file)} is not a parity recording's manifest (format ${FORMAT})`, ExitCode.failed, 'record it again with this version of reportctl');
  return manifest as Manifest;
}

/** A recording's steps by name; a step of the scenario with no file is not comparable. */
export async function readRecording(dir: string): Promise<Recording> {
  const kept = new KeptBytes('the recording');
  const manifest = await readManifest(dir, kept);
  const traits = (await readJson(join(dir, SERVICE_FILE), kept)) as ServiceTraits;
  if (typeof traits !== 'object' || traits === null || typeof traits.catalogs !== 'object') throw new CliError(`${escapeControls(join(dir, SERVICE_FILE))} is not a parity recording's`, ExitCode.failed);
  const outcomes = new Map<string, StepOutcome>();
  for (const name of manifest.files.filter((file) => STEP_FILE.test(file))) {
    const file = join(dir, name);
    const recorded = (await readJson(file, kept)) as ({ step?: unknown } & StepOutcome) | null;
    if (typeof recorded?.step !== 'string' || !('answer' in recorded || 'unanswered' in recorded)) throw new CliError(`${escapeControls(file)} is not a recorded step`, ExitCode.failed);
    outcomes.set(recorded.step, 'answer' in recorded ? { answer: recorded.answer } : { unanswered: String(recorded.unanswered) });
  }
  const specification = manifest.specification.map((finding) => ({ ...finding, side: 'target' as const }));
  const keys = manifest.keys.filter((key): key is OptionalKey => key === 'otherAccount' || key === 'subUser');
  return { traits, outcomes, ignores: await readIgnoreFile(join(dir, IGNORE_FILE), false), keys, specification, notChecked: manifest.notChecked };
}

/** One ignore a line; `#` starts a comment. A missing file is none, unless it was named. */
export async function readIgnoreFile(file: string, named: boolean): Promise<Ignore[]> {
  const text = await readRecordingText(file, { missingOk: !named });
  return (text ?? '').split('\n').flatMap((line, at) => {
    const entry = line.replace(/#.*/, '').trim();
    if (entry === '') return [];
    const ignore = parseIgnore(entry);
    if (!ignore) throw new UsageError(`${escapeControls(file)}:${at + 1}: expected OPERATION:PATH, got \`${escapeControls(entry)}\``);
    return [ignore];
  });
}
