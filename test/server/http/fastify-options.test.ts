import { describe, expect, it } from 'vitest';
import { fastifyOptions } from '../../../src/server/http/fastify-options.js';
import { limitsOf } from '../../../src/server/limits.js';
import { closed, keepAliveConnection, listeningApp } from '../../helpers/app.js';

/** Fastify's configuration (src/server/http/fastify-options.ts), as a connection meets it. */

describe('idle keep-alive connections', () => {
  it('are closed by the server after the keep-alive timeout, 30 s by default', async () => {
    expect(fastifyOptions(limitsOf({ readsPerMinute: 1, writesPerMinute: 1 }), {}).keepAliveTimeout).toBe(30_000);
    const { url } = await listeningApp({ keepAliveTimeoutMs: 200 });
    const socket = await keepAliveConnection(url);
    // Nothing more is sent: the server ends the idle connection itself.
    await closed(socket);
    expect(socket.destroyed).toBe(true);
  });
});
