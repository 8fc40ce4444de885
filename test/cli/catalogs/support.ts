// What the catalogs verbs' tests share: a verb's JSON against the service's own answer, and no
// colour where none is wanted.
import { expect } from 'vitest';
import { ANSI } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';
import { api, type IssuedKey, type ServiceUnderTest } from '../../helpers/server.js';

type Suite = { server: ServiceUnderTest; account: IssuedKey; env: Record<string, string> };

/** `catalogs VERB --json` prints what the service returned at `path`. */
export async function expectJsonAsServed(suite: Suite, verb: string, path: string): Promise<void> {
  const [result, expected] = await Promise.all([runInProcess(['catalogs', verb, '--json'], { env: suite.env }), api(suite.server, 'GET', path, { key: suite.account.apiKey })]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(expected.body);
}

/** `catalogs VERB` piped, and with NO_COLOR even when FORCE_COLOR asks: no colour codes. */
export async function expectNoColour(suite: Suite, verb: string): Promise<void> {
  for (const extra of [{}, { NO_COLOR: '1', FORCE_COLOR: '1' }]) {
    const result = await runInProcess(['catalogs', verb], { env: { ...suite.env, ...extra } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stderr).not.toMatch(ANSI);
  }
}
