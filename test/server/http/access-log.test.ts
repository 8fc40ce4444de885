import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/listen.js';
import type { IssuedKey } from '../../../src/server/store/index.js';
import { api } from '../../helpers/server.js';
import { attackedServerForSuite } from '../../helpers/slow-clients.js';

/** One access-log line per request (src/server/http/access-log.ts), keys masked however they are written. */

describe('item 7: keys in the access log', () => {
  let server: RunningServer;
  let accessLog: string[];
  let owner: IssuedKey;
  let other: IssuedKey;
  attackedServerForSuite((attacked) => ({ server, accessLog, owner, other } = attacked));

  it('a percent-encoded key in the query string or the path is masked', async () => {
    const tail = owner.apiKey.slice('rctl_'.length);
    const encodedAll = [...owner.apiKey].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    await api(server, 'GET', `/api/v2/templates?filter=rctl%5F${tail}`, { key: other.apiKey });
    await api(server, 'GET', `/api/v2/templates?filter=rctl%5f${tail}&page=1`, { key: other.apiKey });
    await api(server, 'GET', `/api/v2/templates/${encodedAll}`, { key: other.apiKey });
    await api(server, 'GET', `/api/v2/templates?lotId=%72ctl_${tail.slice(0, 10)}%2D${tail.slice(11)}`, { key: other.apiKey });
    const log = accessLog.join('\n');
    expect(log).not.toContain(tail.slice(0, 10));
    expect(log).not.toContain(tail.slice(-10));
    expect(log).toMatch(/GET \/api\/v2\/templates\?filter=rctl_\*\*\* 200 /);
    expect(log).toMatch(/GET \/api\/v2\/templates\?filter=rctl_\*\*\*&page=1 200 /);
    expect(log).toMatch(/GET \/api\/v2\/templates\/rctl_\*\*\* 404 /);
  });
});
