// Across verbs: an empty positional argument (an id, a name, a folder, a key: what
// an unset shell variable in quotes gives) is a usage error, exit 2, before anything runs.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import type { CommandUnknownOpts as Command } from '../../src/cli/cmdutil/typed-commander.js';
import { runInProcess, testDeps } from '../helpers/in-process.js';
import { closedUrl } from '../helpers/server.js';

/** Arguments whose empty text is an answer of its own (an empty formula gets its verdict). */
const TEXT = new Set(['formula', 'value']);

function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  if (command.commands.length === 0) return [{ path, command }];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

/** For each leaf and each of its arguments, an argv with "" there and a plausible word elsewhere. */
const cases = leaves(buildProgram(testDeps().deps, () => {})).flatMap(({ path, command }) =>
  command.registeredArguments.flatMap((argument, at) => {
    if (TEXT.has(argument.name())) return [];
    const words = command.registeredArguments.map((other, index) => (index === at ? '' : (other.argChoices?.[0] ?? '1')));
    const required = command.options.filter((option) => option.mandatory).flatMap((option) => [option.long!, '1']);
    return [[`${path.join(' ')} <${argument.name()}>`, [...path, ...words, ...required]] as const];
  }),
);

describe('empty arguments', () => {
  it('finds the commands that take arguments', () => {
    expect(cases.map(([name]) => name)).toEqual(expect.arrayContaining(['queue-runs watch <id>', 'templates get <id>', 'templates diff <dir>', 'config use <profile>', 'admin keys revoke <key>']));
  });

  it.each(cases)('%s: "" is a usage error', async (_name, argv) => {
    const result = await runInProcess([...argv], { env: { REPORTCTL_BASE_URL: await closedUrl(), REPORTCTL_API_KEY: 'rctl_unused' } });
    expect(result.code).toBe(2);
    // An argument with a fixed set of values or a parser refuses "" by itself.
    expect(result.stderr).toMatch(/^reportctl: the [a-z-]+ argument is empty\n|^error: command-argument value '' is invalid/);
  });
});
