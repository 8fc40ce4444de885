import { describe, beforeAll, expect, it } from 'vitest';
import { registerApi } from '../../../src/cli/commands/api.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, tempDir } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { fakeService, json } from '../../helpers/fake-service.js';

describe('api flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerApi(program, deps, wrap, runF),
    [
      [['api', 'GET', 'queues'], { options: { field: [] }, args: ['GET', 'queues'] }],
      [['api', 'GET', '/api/v2/templates', '-F', 'analysisType=counting', '--field', 'limit=5'], { options: { field: ['analysisType=counting', 'limit=5'] }, args: ['GET', '/api/v2/templates'] }],
      // --input is the body file; the global --no-input stays the prompt switch.
      [['api', 'PUT', 'templates/abc', '--input', 'template.json'], { options: { field: [], inputFile: 'template.json' }, args: ['PUT', 'templates/abc'] }],
      [['--no-input', 'api', 'GET', 'queues'], { options: { field: [], input: false }, args: ['GET', 'queues'] }],
      [['api', 'GET'], { usage: /missing required argument 'path'/ }],
      [['api', 'GET', 'queues', '--header', 'x'], { usage: /unknown option '--header'/ }],
    ],
  );
});

const suite = inProcessServiceForSuite();
const env = () => suite.env;
const key = () => suite.account.apiKey;

beforeAll(async () => {
  await suite.server.admin('queues', 'create', '--account', suite.account.accountId, '--name', 'North lots', '--step', 'lot-a:counting');
});

describe('reportctl api', () => {
  it('GET /api/v2/queues prints what the service returned', async () => {
    const [result, expected] = await Promise.all([runInProcess(['api', 'GET', '/api/v2/queues'], { env: env() }), api(suite.server, 'GET', '/api/v2/queues', { key: key() })]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
    expect((expected.body as { total: number }).total).toBe(1);
  });

  it('a path outside /api/ is under /api/v2, as gh api takes paths', async () => {
    const get = (path: string) => runInProcess(['api', 'GET', path], { env: env() });
    const [bare, rooted, whole] = await Promise.all([get('queues'), get('/queues'), get('/api/v2/queues')]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(JSON.parse(bare.stdout)).toMatchObject({ total: 1 });
    expect(bare.stdout).toBe(whole.stdout);
    expect(rooted.stdout).toBe(whole.stdout);
  });

  it('GET fields go to the query string; the method may be lower case', async () => {
    const result = await runInProcess(['api', 'get', 'api/v2/catalogs/report-types', '--verbose'], { env: env() });
    expect(result.code).toBe(0);
    const listed = await runInProcess(['api', 'GET', '/api/v2/templates/presets', '-F', 'limit=2', '--field', 'page=2', '--verbose'], { env: env() });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/templates\/presets\?limit=2&page=2$/m);
    expect(JSON.parse(listed.stdout)).toMatchObject({ page: 2, limit: 2 });
    // --verbose never shows the key.
    expect(listed.stderr).not.toContain(key);
  });

  it('other methods send the fields as a JSON body, typed when they parse as JSON', async () => {
    const valid = await runInProcess(['api', 'POST', '/api/v2/templates/validate-formula', '-F', 'formula=NIR / (R + eps)'], { env: env() });
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, usesL: false });
    // `123` is sent as a number, so the service rejects it by type (exit 1, its message on stderr).
    const typed = await runInProcess(['api', 'POST', '/api/v2/templates/validate-formula', '-F', 'formula=123'], { env: env() });
    expect(typed.code).toBe(1);
    expect(typed.stdout).toBe('');
    expect(typed.stderr).toContain('400 VALIDATION_FAILED');
    expect(typed.stderr).toContain('formula');
    // A JSON string stays a string.
    const quoted = await runInProcess(['api', 'POST', '/api/v2/templates/validate-formula', '-F', 'formula="NIR"'], { env: env() });
    expect(JSON.parse(quoted.stdout)).toEqual({ valid: true, usesL: false });
  });

  it('--input sends a JSON file (or stdin) as the body; DELETE prints nothing', async () => {
    const presets = (await api(suite.server, 'GET', '/api/v2/templates/presets', { key: key() })).body as { data: { seedPayload: Record<string, unknown> }[] };
    const file = join(tempDir(), 'template.json');
    writeFileSync(file, JSON.stringify({ ...presets.data[0]!.seedPayload, name: 'From a file' }));
    const created = await runInProcess(['api', 'POST', '/api/v2/templates', '--input', file], { env: env() });
    expect(created.code).toBe(0);
    const template = JSON.parse(created.stdout) as { id: string; name: string };
    expect(template.name).toBe('From a file');
    expect((await api(suite.server, 'GET', `/api/v2/templates/${template.id}`, { key: key() })).body).toEqual(template);

    const replaced = await runInProcess(['api', 'PUT', `/api/v2/templates/${template.id}`, '--input', '-'], {
      env: env(),
      input: JSON.stringify({ ...presets.data[0]!.seedPayload, name: 'From stdin' }),
    });
    expect(replaced.code).toBe(0);
    expect((JSON.parse(replaced.stdout) as { name: string }).name).toBe('From stdin');

    const deleted = await runInProcess(['api', 'DELETE', `/api/v2/templates/${template.id}`], { env: env() });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('');
    expect((await runInProcess(['api', 'DELETE', `/api/v2/templates/${template.id}`], { env: env() })).code).toBe(4);
  });

  it('errors exit like every command: unknown method 2, unknown path 4, no key 3, bad --input 2', async () => {
    const method = await runInProcess(['api', 'FETCH', '/api/v2/queues'], { env: env() });
    expect(method.code).toBe(2);
    expect(method.stderr).toContain('GET, POST, PUT, DELETE, PATCH, HEAD');
    expect((await runInProcess(['api', 'GET', '/api/v2/nothing-here'], { env: env() })).code).toBe(4);
    expect((await runInProcess(['api', 'GET', '/api/v2/queues'], { env: { REPORTCTL_BASE_URL: suite.server.url } })).code).toBe(3);
    const notJson = await runInProcess(['api', 'POST', '/api/v2/templates', '--input', '-'], { env: env(), input: 'not json' });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--input');
    const field = await runInProcess(['api', 'POST', '/api/v2/templates', '-F', 'novalue'], { env: env() });
    expect(field.code).toBe(2);
  });

  it('a redirect is not success: exit 1, naming where it points, and it is not followed (issue 17, item 6)', async () => {
    const elsewhere = await fakeService((_request, response) => json(response, 200, { followed: true }));
    for (const status of [301, 302, 307, 308]) {
      const service = await fakeService((_request, response) => json(response, status, { moved: true }, { location: `${elsewhere.url}/api/v2/queues` }));
      const result = await runInProcess(['api', 'GET', '/api/v2/queues'], { env: { REPORTCTL_BASE_URL: service.url, REPORTCTL_API_KEY: key() } });
      expect(result.code, `${status}: ${result.stderr}`).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`answered ${status}, a redirect to ${elsewhere.url}/api/v2/queues`);
      expect(result.stderr).toMatch(/^hint: .*--base-url/m);
    }
    expect(elsewhere.requests).toEqual([]);
  });
});
