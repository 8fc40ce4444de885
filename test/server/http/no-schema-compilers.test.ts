import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { openStore } from '../../../src/server/open-store.js';
import { tempDir } from '../../helpers/server.js';

describe("the app builds without Fastify's schema compilers", () => {
  it('a route given a Fastify schema fails at start, saying to use the zod contract', async () => {
    const dir = tempDir();
    const store = openStore(join(dir, 'service.db'));
    const app = buildApp({ store, readsPerMinute: 100, writesPerMinute: 100 });
    try {
      app.get('/schema-route', { schema: { querystring: { type: 'object' } } }, async () => 'never');
      await expect(app.ready()).rejects.toThrow(/zod contract/);
    } finally {
      await app.close().catch(() => undefined);
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
