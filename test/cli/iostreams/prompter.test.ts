// iostreams/prompter.ts: the real prompter every verb's questions go through (@inquirer/prompts), driven
// through streams, keys as a terminal sends them: what the scripted prompter in the command
// tests stands in for.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inquirerPrompter, SEPARATOR } from '../../../src/cli/iostreams/prompter.js';
import type { Streams } from '../../../src/cli/iostreams/io.js';

const ENTER = '\r';
const DOWN = '\u001b[B';

/** A terminal: keys typed on stdin once the prompt is drawn, and what was drawn on stderr. */
function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let drawn = '';
  stderr.setEncoding('utf8').on('data', (chunk: string) => (drawn += chunk));
  const io: Streams = { stdin, stdout: Object.assign(new PassThrough(), { isTTY: true }), stderr };
  const type = async (...keys: string[]) => {
    for (const key of keys) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      stdin.write(key);
    }
  };
  return { io, type, drawn: () => drawn };
}

describe('inquirerPrompter', () => {
  it('select skips the separator, and shows the choices on stderr', async () => {
    const { io, type, drawn } = terminal();
    const prompter = inquirerPrompter(io, new AbortController().signal);
    const answer = prompter.select({ message: 'Start from', choices: [{ name: 'From scratch', value: 'scratch' }, SEPARATOR, { name: 'A preset', value: 'preset' }] });
    await type(DOWN, ENTER);
    expect(await answer).toBe('preset');
    expect(drawn()).toContain('From scratch');
  });

  it('checkbox returns the pre-checked choices on Enter; number its default', async () => {
    const { io, type } = terminal();
    const prompter = inquirerPrompter(io, new AbortController().signal);
    const checked = prompter.checkbox({ message: 'Statistics', choices: [{ name: 'a', value: 'a' }, { name: 'b', value: 'b', checked: true }] });
    await type(ENTER);
    expect(await checked).toEqual(['b']);
    const number = prompter.number({ message: 'L', default: 0.5, min: 0, max: 1, step: 'any' });
    await type(ENTER);
    expect(await number).toBe(0.5);
  });

  it('input re-asks while validate refuses; password does not echo', async () => {
    const { io, type, drawn } = terminal();
    const prompter = inquirerPrompter(io, new AbortController().signal);
    const name = prompter.input({ message: 'Name', validate: (value) => value.length > 2 || 'too short' });
    await type('ab', ENTER);
    await type('c', ENTER);
    expect(await name).toBe('abc');
    expect(drawn()).toContain('too short');
    const key = prompter.password({ message: 'Key' });
    await type('rctl_secret', ENTER);
    expect(await key).toBe('rctl_secret');
    expect(drawn()).not.toContain('rctl_secret');
  });
});
