import type { Streams } from './io.js';
import { importPackage } from './import-package.js';

/** A line between choices of a select. */
export const SEPARATOR = { separator: true } as const;

export interface Choice<Value> {
  name: string;
  value: Value;
  description?: string;
}

export type Validate = (value: string) => true | string;

/**
 * The questions commands ask, injected so tests answer them from a script. Each resolves with
 * the answer; Ctrl-C rejects (the top level makes it exit code 130).
 */
export interface Prompter {
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
  input(question: { message: string; default?: string; required?: boolean; validate?: Validate }): Promise<string>;
  /** Without echo. */
  password(question: { message: string; validate?: Validate }): Promise<string>;
  number(question: { message: string; default?: number; min?: number; max?: number; step?: number | 'any'; required?: boolean }): Promise<number | undefined>;
  select<Value>(question: { message: string; choices: ReadonlyArray<Choice<Value> | typeof SEPARATOR>; default?: Value; pageSize?: number }): Promise<Value>;
  checkbox<Value>(question: { message: string; choices: ReadonlyArray<Choice<Value> & { checked?: boolean }>; pageSize?: number }): Promise<Value[]>;
}

/** The terminal's prompts (@inquirer/prompts, loaded on the first question), written to stderr. */
export function inquirerPrompter(io: Streams, signal: AbortSignal): Prompter {
  const prompts = () => importPackage('@inquirer/prompts');
  const ask = <Answer>(prompt: (context: PromptContext) => Promise<Answer>) => askClearingOnCtrlC(io, signal, prompt);
  return {
    confirm: (question) => ask(async (context) => (await prompts()).confirm(question, context)),
    input: (question) => ask(async (context) => (await prompts()).input(question, context)),
    password: (question) => ask(async (context) => (await prompts()).password(question, context)),
    number: (question) => ask(async (context) => (await prompts()).number(question, context)),
    select: (question) =>
      ask(async (context) => {
        const { select, Separator } = await prompts();
        const choices = question.choices.map((choice) => ('separator' in choice ? new Separator() : choice));
        return select({ ...question, choices }, context);
      }),
    checkbox: (question) => ask(async (context) => (await prompts()).checkbox({ ...question, choices: [...question.choices] }, context)),
  };
}

interface PromptContext {
  input: Streams['stdin'];
  output: Streams['stderr'];
  signal: AbortSignal;
  readonly clearPromptOnDone: boolean;
}

/**
 * One question. An answered prompt stays on screen; one left by Ctrl-C (or an abort) is erased,
 * so no open menu is left behind. inquirer reads `clearPromptOnDone` as the prompt ends, and
 * its readline turns Ctrl-C into a rejection, so the key itself is watched here.
 */
async function askClearingOnCtrlC<Answer>(io: Streams, signal: AbortSignal, prompt: (context: PromptContext) => Promise<Answer>): Promise<Answer> {
  let ctrlC = false;
  const onKeypress = (_text: unknown, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (key?.ctrl === true && key.name === 'c') ctrlC = true;
  };
  io.stdin.on('keypress', onKeypress);
  try {
    return await prompt({
      input: io.stdin,
      output: io.stderr,
      signal,
      get clearPromptOnDone() {
        return ctrlC || signal.aborted;
      },
    });
  } finally {
    io.stdin.off('keypress', onKeypress);
  }
}
