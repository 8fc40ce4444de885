import { describe, beforeAll, expect, it } from 'vitest';
import { registerAuthStatus } from '../../../src/cli/commands/auth/status.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { closedUrl } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';

describe('auth status flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAuthStatus(program.command('auth'), deps, wrap, runF),
    [
      [['auth', 'status'], { options: {} }],
      [['auth', 'status', '--json', '--api-key', 'rctl_x'], { options: { json: true, apiKey: 'rctl_x' } }],
      [['auth', 'status', '--api-key'], { usage: /option '--api-key <key>' argument missing/ }],
    ],
  );
});

const suite = inProcessServiceForSuite();
const key = () => suite.account.apiKey;
/** A URL nothing answers at, for the level of the precedence that must lose. */
let wrongUrl: string;

beforeAll(async () => {
  wrongUrl = await closedUrl();
});

describe('auth', () => {
  it('status: 3 when the key is rejected, 6 when the service cannot be reached', async () => {
    const rejected = await runInProcess(['auth', 'status'], { env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: 'rctl_wrong' } });
    expect(rejected.code).toBe(3);
    expect(rejected.stdout).toContain('rejected (API_KEY_INVALID');
    const unreachable = await runInProcess(['auth', 'status', '--json'], { env: { REPORTCTL_BASE_URL: wrongUrl, REPORTCTL_API_KEY: key() } });
    expect(unreachable.code).toBe(6);
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ status: 'unreachable', baseUrl: wrongUrl, baseUrlSource: 'env REPORTCTL_BASE_URL' });
    expect(unreachable.stderr).toContain(wrongUrl);
  });
});
