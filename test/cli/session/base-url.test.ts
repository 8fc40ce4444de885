// session/base-url.ts: how any command takes the base URL it is given (a trailing /api/v2, no scheme,
// the wrong scheme, a path, some other web server): a note, a usage error or a hint, in words.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../../helpers/server.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { fakeService } from '../../helpers/fake-service.js';

describe('base URL mistakes', () => {
  const suite = inProcessServiceForSuite();
  const list = (baseUrl: string) =>
    runInProcess(['templates', 'list', '--json'], { env: { REPORTCTL_API_KEY: suite.account.apiKey, REPORTCTL_BASE_URL: baseUrl, REPORTCTL_CONFIG_DIR: tempDir() } });

  it('a trailing /api/v2 is dropped, with a note', async () => {
    const result = await list(`${suite.server.url}/api/v2/`);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ data: [] });
    expect(result.stderr).toMatch(/^note: the base URL is the service's root, without \/api\/v2; using http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it('a loopback address without a scheme is taken as http://, with a note', async () => {
    const result = await list(suite.server.url.replace('http://', ''));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/no scheme; using http:\/\/127\.0\.0\.1:\d+ \(a loopback address\)/);
  });

  it('another host without a scheme is a usage error with a hint', async () => {
    const result = await list('reports.example.com');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: 'USAGE', message: expect.stringContaining('has no scheme'), hint: expect.stringContaining('write https://reports.example.com') });
  });

  it('https:// against the plain-HTTP server explains the mismatch', async () => {
    const result = await list(suite.server.url.replace('http://', 'https://'));
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/answers in plain HTTP, not HTTPS: use http:\/\/127\.0\.0\.1/);
    expect(result.stderr).not.toMatch(/try again/);
  });

  it('a base URL with a path, or a server that answers 404 with an empty body, says to check --base-url', async () => {
    const env = (baseUrl: string) => ({ env: { REPORTCTL_API_KEY: suite.account.apiKey, REPORTCTL_BASE_URL: baseUrl, REPORTCTL_CONFIG_DIR: tempDir() } });
    const prefixed = await runInProcess(['templates', 'list'], env(`${suite.server.url}/v2`));
    expect(prefixed.code).toBe(4);
    expect(prefixed.stderr).toContain('No route GET /v2/api/v2/templates');
    expect(prefixed.stderr).toContain(`hint: no such route of this API there: check --base-url; it is the root of the service, e.g. http://127.0.0.1:4747 (the base URL ${suite.server.url}/v2 came from the environment variable REPORTCTL_BASE_URL)`);
    const empty = await fakeService((_request, response) => {
      response.writeHead(404);
      response.end();
    });
    const answered = await runInProcess(['templates', 'get', 'San José'], env(empty.url));
    expect(answered.code).toBe(4);
    expect(answered.stderr).toMatch(/^hint: no such route of this API there: check --base-url/m);
  });

  it('doctor pointed at some other web server fails, saying it is not this API', async () => {
    const other = createServer((request, response) => {
      response.writeHead(request.url?.startsWith('/api/') ? 404 : 200, { 'content-type': 'text/html' });
      response.end('<html><title>It works</title></html>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const result = await runInProcess(['doctor'], { env: { REPORTCTL_BASE_URL: url, REPORTCTL_API_KEY: 'rctl_x', REPORTCTL_CONFIG_DIR: tempDir() } });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/service: .*answered 404, but not as the report templates API/);
      expect(result.stdout).not.toMatch(/api key: accepted/);
    } finally {
      other.close();
    }
  });
});
