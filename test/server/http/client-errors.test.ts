import { connect } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunningServer } from '../../../src/server/listen.js';
import { attackedServerForSuite } from '../../helpers/slow-clients.js';
import { closed, listeningApp } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-http.js';

/**
 * Requests Node's parser refuses before any of the app runs (src/server/http/client-errors.ts):
 * each gets a response in the service's shape, with the client address's rate-limit headers,
 * as every response has.
 */

describe('answers made before routing carry the client address rate-limit headers, spending nothing', () => {
  it('not HTTP: 400; headers too large: 431; headers too slow: 408 REQUEST_TIMEOUT without issues', async () => {
    const { url } = await listeningApp({ headersTimeoutMs: 300 });
    const notHttp = await rawRequest(url, { method: 'GET', target: '/a b c' });
    expect(notHttp.status).toBe(400);
    const tooLarge = await rawRequest(url, { method: 'GET', target: '/api/v2/openapi.json', headers: [['X-Big', 'x'.repeat(20_000)]] });
    expect(tooLarge.status).toBe(431);
    const { hostname, port } = new URL(url);
    const slow = connect(Number(port), hostname);
    onTestFinished(() => void slow.destroy());
    let received = '';
    slow.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    slow.on('error', () => {});
    slow.write('GET /api/v2/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
    await closed(slow);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'REQUEST_TIMEOUT',
      message: 'The request did not arrive in time; send it again' });
    for (const head of [notHttp.headers, tooLarge.headers, Object.fromEntries(received.split('\r\n').map((line) => [line.split(':')[0]!.toLowerCase(), line.split(': ')[1]]))]) {
      expect(head['x-ratelimit-limit']).toBe('50');
      // No request of this test spent from the address's bucket.
      expect(head['x-ratelimit-remaining']).toBe('50');
      expect(head['ratelimit-policy']).toBe('"reads";q=50;w=60');
    }
    // A request that does spend shows it, and the next refusal shows that count.
    expect((await rawRequest(url, { method: 'GET', target: '/api/v2/templates' })).headers['x-ratelimit-remaining']).toBe('49');
    expect((await rawRequest(url, { method: 'GET', target: '/a b c' })).headers['x-ratelimit-remaining']).toBe('49');
  });
});

describe("a request Node's parser refuses while its body is still coming", () => {
  let server: RunningServer;
  attackedServerForSuite((attacked) => ({ server } = attacked));

  it('is answered 400 and the answer reaches a client that writes its whole body first: no reset', async () => {
    const url = new URL(server.url);
    // More than loopback buffers hold: the client is still writing when the server answers.
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    for (let i = 0; i < 5; i++) {
      const received = await new Promise<{ text: string; error?: string }>((resolve) => {
        const socket = connect(Number(url.port), url.hostname);
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('error', (error: NodeJS.ErrnoException) => resolve({ text, error: error.code ?? error.message }));
        socket.on('close', () => resolve({ text }));
        // An unknown method: refused by Node's parser, before any of the app runs.
        socket.write(`FOO /api/v2/templates HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n`);
        socket.end(body);
      });
      expect(received.error).toBeUndefined();
      expect(received.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(received.text).toContain('"The request is not valid HTTP"');
    }
  });
});
