import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface SeenRequest {
  method: string;
  path: string;
  body: string;
  /** Date.now() when the whole request had arrived. */
  at: number;
}

export type Answer = (request: IncomingMessage, response: ServerResponse, count: number) => void;

export interface FakeService {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A node:http server on 127.0.0.1 that answers request number `count` (1-based) as `answer`
 * says: for what a real `reportctl serve` never does (faults, hostile answers). Closed when
 * the test that started it ends (so call it inside a test).
 */
export async function fakeService(answer: Answer): Promise<FakeService> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', path: request.url ?? '', body, at: Date.now() });
      answer(request, response, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service: FakeService = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  // A hook of the test, not of this module: a module-level afterEach would bind to the first
  // file that imports this one when files share modules, and leave later files' servers open.
  onTestFinished(() => service.close());
  return service;
}

/** Answers `body` as the service's JSON; returns the exact text sent. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): string {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
  return text;
}
