// The CLI inside the test process: `runCli` with captured streams, a scripted prompter and an
// editor in code, against the service started in this process on a free port. For what only
// a process shows (exit of the process, signals, pipes, a real terminal) see cli.ts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { expect, onTestFinished } from 'vitest';
import type { IssuedKey } from '../../src/server/store/index.js';
import type { CliDeps } from '../../src/cli/cmdutil/context.js';
import type { Editor } from '../../src/cli/iostreams/editor.js';
import { EditorFailed } from '../../src/cli/iostreams/editor.js';
import { runCli } from '../../src/cli/program.js';
import type { Choice, Prompter, SEPARATOR } from '../../src/cli/iostreams/prompter.js';
import { startServer, type RunningServer } from '../../src/server/listen.js';
import type { CliResult } from './cli.js';
import { adminOn, suiteWith, type ServiceUnderTest } from './server.js';

import { testDeps, type InProcessOptions } from './test-deps.js';

export { refusingPrompter, testDeps, type InProcessDeps, type InProcessOptions } from './test-deps.js';

/** What a verb's `run` prints on stdout, given dependencies with captured streams. */
export async function stdoutOf(run: (deps: CliDeps) => Promise<unknown>): Promise<string> {
  const { deps, stdout } = testDeps();
  await run(deps);
  return stdout();
}

/**
 * `reportctl ARGS` in this process: the same parsing, verbs and exit codes as the binary.
 * A scripted prompter or editor left with unused answers fails the test.
 */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const { deps, stdout, stderr } = testDeps(options);
  const code = await runCli(args, deps);
  for (const fake of [options.prompter, options.editor]) {
    if (fake && 'assertDone' in fake && typeof fake.assertDone === 'function') (fake.assertDone as () => void)();
  }
  return { code, signal: null, stdout: stdout(), stderr: stderr() };
}


type PromptKind = keyof Prompter;
/**
 * What a scripted question answers: the value (for select and checkbox, the choices' names),
 * or a function of the question that returns it or throws as a prompt would (Ctrl-C).
 */
export type ScriptedAnswer = { kind: PromptKind; message: string | RegExp; answer: unknown };
export interface AskedQuestion {
  kind: PromptKind;
  message: string;
  question: Record<string, unknown>;
  /** What `validate` said about each answer it refused. */
  refused: string[];
}

export interface ScriptedPrompter extends Prompter {
  asked: AskedQuestion[];
  assertDone(): void;
}

/**
 * Answers the questions in `script`, in order: a question that is not the next one fails, as
 * does a script left with answers at the end. Input answers go through the question's
 * `validate`; a refused one is recorded and the next scripted answer (for the same message)
 * is tried, as a person retypes. Select answers name a choice (its `name` contains the text).
 */
export function scriptedPrompter(...script: ScriptedAnswer[]): ScriptedPrompter {
  const queue = [...script];
  const asked: AskedQuestion[] = [];
  const next = (kind: PromptKind, question: { message: string }): { answer: unknown } => {
    const entry = queue.shift();
    const matches = entry && entry.kind === kind && (typeof entry.message === 'string' ? question.message.includes(entry.message) : entry.message.test(question.message));
    if (!matches) throw new Error(`unexpected ${kind} prompt "${question.message}"; the script expected ${entry ? `${entry.kind} ${String(entry.message)}` : 'no more questions'}`);
    return { answer: typeof entry.answer === 'function' ? (entry.answer as (asked: unknown) => unknown)(question) : entry.answer };
  };
  const record = (kind: PromptKind, question: { message: string }): AskedQuestion => {
    const entry = { kind, message: question.message, question: question as Record<string, unknown>, refused: [] };
    asked.push(entry);
    return entry;
  };
  const typed = async (kind: 'input' | 'password', question: { message: string; validate?: (value: string) => true | string }): Promise<string> => {
    const entry = record(kind, question);
    for (;;) {
      const answer = String(next(kind, question).answer);
      const verdict = question.validate?.(answer) ?? true;
      if (verdict === true) return answer;
      entry.refused.push(verdict);
    }
  };
  const pick = <Value>(choices: ReadonlyArray<Choice<Value> | typeof SEPARATOR>, name: unknown): Value => {
    const named = choices.filter((choice): choice is Choice<Value> => 'name' in choice);
    const found = named.find((choice) => choice.name === name) ?? named.find((choice) => choice.name.includes(String(name)));
    if (!found) throw new Error(`no choice named ${String(name)} among ${choices.map((choice) => ('name' in choice ? choice.name : '---')).join(', ')}`);
    return found.value;
  };
  return {
    asked,
    assertDone: () => expect(queue, 'scripted answers never asked for').toEqual([]),
    confirm: async (question) => {
      record('confirm', question);
      return Boolean(next('confirm', question).answer);
    },
    input: (question) => typed('input', question),
    password: (question) => typed('password', question),
    number: async (question) => {
      record('number', question);
      const answer = next('number', question).answer;
      return answer === undefined ? question.default : Number(answer);
    },
    select: async (question) => {
      record('select', question);
      return pick(question.choices, next('select', question).answer);
    },
    checkbox: async (question) => {
      record('checkbox', question);
      const names = next('checkbox', question).answer as string[];
      return names.map((name) => pick(question.choices, name));
    },
  };
}

/** One edit the scripted editor makes: the new text, or a failing exit status. */
export type ScriptedEdit = (text: string) => string | { exitStatus: number };

export interface ScriptedEditor extends Editor {
  /** The files it was asked to open, in order. */
  opened: string[];
  assertDone(): void;
}

/** An editor that makes `edits` in order and saves them in the file, as a person would. */
export function scriptedEditor(...edits: ScriptedEdit[]): ScriptedEditor {
  const queue = [...edits];
  const opened: string[] = [];
  return {
    command: 'scripted-editor',
    opened,
    assertDone: () => expect(queue.length, 'scripted edits never made').toBe(0),
    async edit(file, text) {
      opened.push(file);
      const edit = queue.shift();
      if (!edit) throw new Error(`the editor was opened once more than scripted (${file})`);
      const result = edit(text);
      if (typeof result !== 'string') {
        writeFileSync(file, text, { mode: 0o600 });
        throw new EditorFailed(result.exitStatus);
      }
      writeFileSync(file, result, { mode: 0o600 });
      return result;
    },
  };
}

/** The service in this process, on a free port, with its own database file. */
export interface InProcessService extends ServiceUnderTest {
  running: RunningServer;
}

export async function startInProcessService(
  options: {
    readsPerMinute?: number;
    writesPerMinute?: number;
    rateWindowSeconds?: number;
    /** The rate limits' clock (a fake one lets a test wait out a window without waiting). */
    now?: () => number;
    accessLog?: (line: string) => void;
    /** The database file (a fresh one in a temporary folder by default). */
    db?: string;
    /** A free one by default. */
    port?: number;
    /** Also the demo account (its keys in `running.demoKeys`), as `serve --demo`. */
    demo?: boolean;
    /** Runs move on by themselves, a step every this many ms, as `serve --simulate`. */
    simulateStepMs?: number;
  } = {},
): Promise<InProcessService> {
  const db = options.db ?? join(mkdtempSync(join(tmpdir(), 'reportctl-in-process-')), 'service.db');
  const running = await startServer({
    host: '127.0.0.1',
    port: options.port ?? 0,
    dbPath: db,
    demo: options.demo === true,
    readsPerMinute: options.readsPerMinute ?? 100_000,
    writesPerMinute: options.writesPerMinute ?? 100_000,
    ...(options.rateWindowSeconds !== undefined ? { rateWindowMs: options.rateWindowSeconds * 1000 } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.accessLog ? { accessLog: options.accessLog } : {}),
    ...(options.simulateStepMs !== undefined ? { simulateStepMs: options.simulateStepMs } : {}),
  });
  // Stopping twice (a test that stops it early, then the suite's afterAll) closes it once.
  let stopped: Promise<void> | undefined;
  return {
    url: running.url,
    db,
    running,
    ...adminOn(db, (args) => runInProcess(args)),
    newAccount: async (opts = {}) => running.store.accounts.create(opts),
    stop: () => (stopped ??= running.close()),
  };
}

/** An in-process service and one account for a describe block (read the fields inside tests). */
export function inProcessServiceForSuite(options: Parameters<typeof startInProcessService>[0] = {}): {
  server: InProcessService;
  account: IssuedKey;
  env: Record<string, string>;
} {
  return suiteWith(() => startInProcessService(options));
}

/**
 * undici's MockAgent for answers a real service does not give on demand: pass it as
 * `dispatcher`. Nothing reaches the network; an interceptor left unused fails the test.
 */
export function mockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  // Per test rather than a module-level afterEach, which a file sharing this module with an
  // earlier one (isolate: false) would never register.
  onTestFinished(async () => {
    try {
      agent.assertNoPendingInterceptors();
    } finally {
      await agent.close();
    }
  });
  return agent;
}
