// Across verbs: every network command goes through HTTPS_PROXY/HTTP_PROXY, and direct to the
// hosts in NO_PROXY and to loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { runCli } from '../helpers/cli.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';

/**
 * A forward proxy: relays absolute-form requests, tunnels CONNECT (which undici's proxy agent
 * uses), and remembers what it was asked for.
 */
function startProxy(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((incoming, outgoing) => {
    seen.push(`${incoming.method} ${incoming.url}`);
    const target = new URL(incoming.url ?? '/');
    const relay = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    relay.on('error', () => outgoing.destroy());
    incoming.pipe(relay);
  });
  server.on('connect', (incoming, client, head) => {
    seen.push(`CONNECT ${incoming.url}`);
    const [host, port] = (incoming.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server })),
  );
}

const suite = inProcessServiceForSuite();
let proxy: Awaited<ReturnType<typeof startProxy>>;

beforeAll(async () => {
  proxy = await startProxy();
});
afterAll(() => {
  proxy?.server.close();
});

describe('proxies from the environment', () => {
  it('sends requests through HTTP_PROXY', async () => {
    proxy.seen.length = 0;
    const result = await runCli(['catalogs', 'statistics', '--json'], {
      env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey, HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(['counting', 'replanting', 'path']);
    const host = new URL(suite.server.url).host;
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((line) => line === `CONNECT ${host}` || line === `GET ${suite.server.url}/api/v2/catalogs/statistics`)).toBe(true);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    proxy.seen.length = 0;
    const result = await runCli(['catalogs', 'statistics', '--json'], {
      env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: suite.account.apiKey, HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.seen).toEqual([]);
  });

  it('goes direct to a loopback address when NO_PROXY is not set, as curl does', async () => {
    proxy.seen.length = 0;
    const env = { REPORTCTL_API_KEY: suite.account.apiKey, HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: undefined, no_proxy: undefined };
    const port = new URL(suite.server.url).port;
    for (const baseUrl of [suite.server.url, `http://localhost:${port}`]) {
      const result = await runCli(['catalogs', 'statistics', '--json'], { env: { ...env, REPORTCTL_BASE_URL: baseUrl } });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(proxy.seen).toEqual([]);
  });
});
