import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/listen.js';
import { api } from '../../helpers/server.js';
import { bigPages, eventually, readAnswer, serverOptions, unreadRequest } from '../../helpers/slow-clients.js';

/** A response its client does not take (src/server/http/slow-readers.ts): dropped at the stall limit, or at the deadline. */

describe('item 2: one account cannot make the server hold gigabytes', () => {
  it('an answer its client stops reading is dropped after the stall limit, which frees the account for all its keys', { timeout: 120_000 }, async () => {
    // Its own server, with the stall limit shortened from 10 s, and a cap on requests in flight
    // to show the account's slots held.
    // Four pages read at once from the database (none cached yet) reserve 51 MiB: the account's
    // share is the whole budget here, so none of them is refused for memory instead.
    const stalling = await startServer({ ...serverOptions(), responseStallMs: 300, maxInFlightPerAccount: 4, maxAccountResponseBytes: 192 * 1024 * 1024 });
    const held: Socket[] = [];
    try {
      const account = bigPages(stalling);
      const subUser = stalling.store.keys.create(account.accountId, { subUserName: 'field team' })!;
      for (let i = 0; i < 4; i++) held.push(await unreadRequest(stalling.url, '/api/v2/templates?limit=100', account.apiKey));
      const presets = (key: string) => api(stalling, 'GET', '/api/v2/templates/presets?limit=1', { key });
      // The stalled answers hold all 4 of the account's slots, for every key of it...
      expect((await eventually(() => presets(subUser.apiKey), (answer) => answer.status === 429)).status).toBe(429);
      // ...until the server drops them: nothing here reads or closes those sockets.
      expect((await eventually(() => presets(subUser.apiKey), (answer) => answer.status === 200)).status).toBe(200);
      expect((await presets(account.apiKey)).status).toBe(200);
      // Dropped, not finished: read now, the connections end before their answers' last byte.
      // Not every one: loopback buffers may grow to 32 MiB here and take a whole 12 MiB page, and
      // the server then sees that answer as sent.
      const short: boolean[] = [];
      for (const socket of held) {
        const received = await readAnswer(socket);
        const head = received.subarray(0, received.indexOf('\r\n\r\n')).toString('latin1');
        const length = Number(/content-length: (\d+)/i.exec(head)![1]);
        short.push(received.length - head.length - 4 < length);
      }
      expect(short).toContain(true);
    } finally {
      for (const socket of held) socket.destroy();
      await stalling.close();
    }
  });

  it('an answer read too slowly to finish within the deadline is dropped, though its client never stalls', { timeout: 120_000 }, async () => {
    const deadlined = await startServer({ ...serverOptions(), responseDeadlineMs: 500, responseStallMs: 120_000 });
    try {
      const account = bigPages(deadlined);
      const socket = await unreadRequest(deadlined.url, '/api/v2/templates?limit=100', account.apiKey);
      // A trickle: one chunk, then a pause, again and again; far below the 12 MiB page's size per deadline.
      socket.pause();
      socket.on('data', () => {
        socket.pause();
        setTimeout(() => socket.resume(), 20);
      });
      const receiving = readAnswer(socket);
      socket.resume();
      const received = await receiving;
      const head = received.subarray(0, received.indexOf('\r\n\r\n')).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      const length = Number(/content-length: (\d+)/i.exec(head)![1]);
      expect(received.length - head.length - 4).toBeLessThan(length);
      // The account is served again at once.
      expect((await api(deadlined, 'GET', '/api/v2/templates?limit=1', { key: account.apiKey })).status).toBe(200);
    } finally {
      await deadlined.close();
    }
  });
});
