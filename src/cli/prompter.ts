import type { IOStreams } from './io.js';
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
export function inquirerPrompter(io: IOStreams, signal: AbortSignal): Prompter {
  const context = () => ({ input: io.stdin, output: io.stderr, signal });
  const prompts = () => importPackage('@inquirer/prompts');
  return {
    confirm: async (question) => (await prompts()).confirm(question, context()),
    input: async (question) => (await prompts()).input(question, context()),
    password: async (question) => (await prompts()).password(question, context()),
    number: async (question) => (await prompts()).number(question, context()),
    select: async (question) => {
      const { select, Separator } = await prompts();
      const choices = question.choices.map((choice) => ('separator' in choice ? new Separator() : choice));
      return select({ ...question, choices }, context());
    },
    checkbox: async (question) => (await prompts()).checkbox({ ...question, choices: [...question.choices] }, context()),
  };
}
