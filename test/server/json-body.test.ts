// The body reader's drain of unread bodies (src/server/http/json-body.ts), on Node's own request objects.
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { drainUnread } from '../../src/server/http/json-body.js';

/** A request as Node's parser hands it over: headers read, body not yet (complete is false). */
function requestWith(headers: Record<string, string>): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.headers = headers;
  return request;
}

describe('drainUnread', () => {
  it('a request without Content-Length or Transfer-Encoding has no body: nothing to wait for', () => {
    expect(drainUnread(requestWith({ host: 'localhost' }))).toBeUndefined();
    expect(drainUnread(requestWith({ host: 'localhost', 'content-length': '0' }))).toBeUndefined();
  });

  it('an unread body is read to its end before the answer goes', async () => {
    const bodies: Record<string, string>[] = [{ 'content-length': '5' }, { 'transfer-encoding': 'chunked' }];
    for (const headers of bodies) {
      const request = requestWith(headers);
      const drained = drainUnread(request);
      expect(drained).toBeInstanceOf(Promise);
      let settled = false;
      void drained!.then(() => (settled = true));
      request.push(Buffer.from('hello'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      request.push(null);
      await drained;
      expect(settled).toBe(true);
    }
  });

  it('a body larger than the drain limit is not waited for', () => {
    expect(drainUnread(requestWith({ 'content-length': String(64 * 1024 * 1024) }))).toBeUndefined();
  });
});
