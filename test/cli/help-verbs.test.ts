// Across verbs: help names only commands that exist, and a mistyped verb gets a guess, for
// every group (in this process: what help says and the exit codes are runCli's, as in the binary).
import { describe, expect, it } from 'vitest';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';

/** The verbs root help names for each group: `templates   Report templates: list, get, …`. */
function summarisedVerbs(help: string): Map<string, string[]> {
  const commands = help.slice(help.indexOf('Commands:'), help.indexOf('Get started:')).replace(/\n {20,}/g, ' ');
  const groups = new Map<string, string[]>();
  for (const match of commands.matchAll(/^ {2}([a-z-]+) +[^\n]*?: ([a-z-]+(?:, [a-z-]+)*)$/gm)) groups.set(match[1]!, match[2]!.split(', '));
  return groups;
}

describe('help names only commands that exist', () => {
  it('every verb a group summary names runs (its --help answers), for every group', async () => {
    const root = await runInProcess(['--help']);
    const groups = summarisedVerbs(root.stdout);
    expect([...groups.keys()]).toEqual(expect.arrayContaining(['templates', 'queue-runs', 'catalogs', 'config', 'auth', 'formula', 'admin']));
    for (const [group, verbs] of groups) {
      const help = await runInProcess([group, '--help']);
      const listed = [...help.stdout.slice(help.stdout.indexOf('Commands:')).matchAll(/^ {2}([a-z-]+)(?:\|[a-z|-]+)?(?: |$)/gm)].map((match) => match[1]);
      expect(listed, `${group} --help`).toEqual(expect.arrayContaining(verbs));
      expect(verbs.length, group).toBe(listed.filter((verb) => verb !== 'help').length);
    }
  });

  it('a mistyped verb gets a "did you mean", exit 2', async () => {
    const result = await runInProcess(['templates', 'shw', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'shw'[\s\S]*Did you mean show\?/);
  });

  describe('show and view are get', () => {
    const suite = inProcessServiceForSuite();

    it.each([['templates'], ['queue-runs']])('%s show / view / get answer alike', async (group) => {
      const { env } = suite;
      const id = '00000000-0000-4000-8000-000000000000';
      const results = await Promise.all(['get', 'show', 'view'].map((verb) => runInProcess([group, verb, id], { env })));
      for (const result of results) {
        expect(result.code).toBe(4);
        expect(result.stderr).toBe(results[0]!.stderr);
      }
    });
  });
});
