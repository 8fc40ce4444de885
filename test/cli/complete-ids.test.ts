// Across verbs: the ids every verb's completion offers (__complete): ids that look like ids,
// names as plain text, and nothing at all when the service fails.
import { describe, expect, it } from 'vitest';
import { runCompleteIds } from '../../src/cli/commands/completion/index.js';
import { inProcessServiceForSuite, mockAgent, testDeps } from '../helpers/in-process.js';
import { api } from '../helpers/server.js';
import { generalBody } from '../contract/fixtures.js';

// The completion scripts trust only what __complete prints: ids that look like ids, names as text.
describe('__complete, run in process', () => {
  const suite = inProcessServiceForSuite();

  it('prints id<TAB>name with --names and bare ids without, for the templates of the key in use', async () => {
    const body = generalBody({ name: 'Lot 8: "wet" $(touch x)' });
    const created = await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, body });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;

    const named = testDeps({ env: suite.env });
    await runCompleteIds('template-ids', { names: true }, named.deps);
    expect(named.stdout()).toBe(`${id}\tLot 8: "wet" $(touch x)\n`);

    const bare = testDeps({ env: suite.env });
    await runCompleteIds('template-ids', {}, bare.deps);
    expect(bare.stdout()).toBe(`${id}\n`);
  });

  it('a failing service prints nothing and never throws (a TAB must not print errors)', async () => {
    const service = 'http://127.0.0.1:4999';
    const agent = mockAgent();
    agent
      .get(service)
      .intercept({ method: 'GET', path: '/api/v2/templates?page=1&limit=100' })
      .reply(500, { error: 'INTERNAL', message: 'broken' }, { headers: { 'content-type': 'application/json' } });
    const failed = testDeps({ env: { REPORTCTL_BASE_URL: service, REPORTCTL_API_KEY: 'rctl_test' }, dispatcher: agent });
    await expect(runCompleteIds('template-ids', { names: true }, failed.deps)).resolves.toBeUndefined();
    expect(failed.stdout()).toBe('');
    expect(failed.stderr()).toBe('');
  });
});
