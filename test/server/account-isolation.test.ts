// Across modules: one account's key never reaches another account's data, in any route or store module.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, tempDir, type IssuedKey } from '../helpers/server.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import {
  createTemplate,
  expectError,
  listAll,
  minimalBody,
  newSubUser,
  readCatalogs,
  type CatalogsOverHttp,
  type Page,
  type TemplateDoc,
} from '../helpers/http.js';

/**
 * docs/decisions.md: "Authentication": a key never reaches another account's data (404, exactly as an
 * unknown id), a sub-user's key sees exactly what the owner's sees, and the template limit is
 * counted over the whole account, even under concurrent creates.
 */

const suite = inProcessServiceForSuite();
let catalogs: CatalogsOverHttp;
let ownerA: IssuedKey;
let subA: IssuedKey;
let ownerB: IssuedKey;
let subB: IssuedKey;
let templatesA: TemplateDoc[];
let templatesB: TemplateDoc[];

const LISTS = ['/api/v2/templates', '/api/v2/queues', '/api/v2/queue-runs', '/api/v2/analyses'];

function seedFile(prefix: string): string {
  const file = join(tempDir(), `${prefix}-fixtures.json`);
  writeFileSync(
    file,
    JSON.stringify({
      queues: [{ name: `${prefix} queue`, steps: [{ lotId: `${prefix}-lot-1`, analysisType: 'counting' }, { lotId: `${prefix}-lot-2`, analysisType: 'path' }] }],
      runs: [
        { queue: 0, name: `${prefix} done`, advance: 10 },
        { queue: 0, name: `${prefix} pending` },
      ],
      analyses: [{ lotId: `${prefix}-lot-9`, analysisType: 'replanting', status: 'completed' }],
    }),
  );
  return file;
}

beforeAll(async () => {
  ownerA = suite.account;
  ownerB = await suite.server.newAccount();
  [subA, subB] = await Promise.all([newSubUser(suite.server, ownerA.accountId, 'x'), newSubUser(suite.server, ownerB.accountId, 'x')]);
  await suite.server.admin('seed', '--account', ownerA.accountId, '--file', seedFile('a'));
  await suite.server.admin('seed', '--account', ownerB.accountId, '--file', seedFile('b'));
  catalogs = await readCatalogs(suite.server, ownerA.apiKey);
  templatesA = [];
  templatesB = [];
  for (let i = 0; i < 3; i++) {
    templatesA.push(await createTemplate(suite.server, ownerA.apiKey, minimalBody(catalogs, { name: `A ${i}` })));
    templatesB.push(await createTemplate(suite.server, ownerB.apiKey, minimalBody(catalogs, { name: `B ${i}` })));
  }
  templatesA.push(await createTemplate(suite.server, subA.apiKey, minimalBody(catalogs, { name: 'A by sub-user' })));
});

describe('another account’s data', () => {
  it('GET, PUT and DELETE of A’s template ids are 404 for B’s owner and sub-user, like an unknown id', async () => {
    const unknownGet = await api(suite.server, 'GET', '/api/v2/templates/00000000-0000-4000-8000-000000000000', { key: ownerB.apiKey });
    const unknownPut = await api(suite.server, 'PUT', '/api/v2/templates/00000000-0000-4000-8000-000000000000', {
      key: ownerB.apiKey,
      body: minimalBody(catalogs),
    });
    const unknownDelete = await api(suite.server, 'DELETE', '/api/v2/templates/00000000-0000-4000-8000-000000000000', { key: ownerB.apiKey });
    for (const key of [ownerB.apiKey, subB.apiKey]) {
      for (const template of templatesA) {
        const got = await api(suite.server, 'GET', `/api/v2/templates/${template.id}`, { key });
        expectError(got, 404, 'NOT_FOUND');
        expect(got.body).toEqual(unknownGet.body);
        const put = await api(suite.server, 'PUT', `/api/v2/templates/${template.id}`, { key, body: minimalBody(catalogs, { name: 'hijacked' }) });
        expectError(put, 404, 'NOT_FOUND');
        expect(put.body).toEqual(unknownPut.body);
        const deleted = await api(suite.server, 'DELETE', `/api/v2/templates/${template.id}`, { key });
        expectError(deleted, 404, 'NOT_FOUND');
        expect(deleted.body).toEqual(unknownDelete.body);
      }
    }
    // A's templates are untouched.
    for (const template of templatesA) {
      const mine = await api(suite.server, 'GET', `/api/v2/templates/${template.id}`, { key: ownerA.apiKey });
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual(template);
    }
  });

  it('B’s lists show none of A’s templates, queues, runs or analyses (and all of B’s own)', async () => {
    const idsOf = async (key: string, path: string) => (await listAll<{ id: string }>(suite.server, key, path)).map((item) => item.id);
    for (const path of LISTS) {
      const [ofA, ofB, ofSubB] = await Promise.all([idsOf(ownerA.apiKey, path), idsOf(ownerB.apiKey, path), idsOf(subB.apiKey, path)]);
      expect(ofA.length, path).toBeGreaterThan(0);
      expect(ofB.length, path).toBeGreaterThan(0);
      for (const id of ofA) {
        expect(ofB, path).not.toContain(id);
        expect(ofSubB, path).not.toContain(id);
      }
      expect(ofSubB).toEqual(ofB);
    }
    expect((await idsOf(ownerB.apiKey, '/api/v2/templates')).sort()).toEqual(templatesB.map((t) => t.id).sort());
  });

  it('filters never reach into another account', async () => {
    for (const key of [ownerB.apiKey, subB.apiKey]) {
      const byLot = await api(suite.server, 'GET', '/api/v2/analyses?lotId=a-lot-1', { key });
      expect(byLot.body).toMatchObject({ total: 0, data: [] });
      const legacy = await api(suite.server, 'POST', '/api/v0/analyses', { key, body: { lotId: 'a-lot-1' } });
      expect(legacy.status).toBe(200);
      const items = Array.isArray(legacy.body) ? legacy.body : (legacy.body as Page<unknown>).data;
      expect(items).toEqual([]);
      const byName = await api(suite.server, 'GET', `/api/v2/templates?reportType=${templatesA[0]!.reportType}`, { key });
      const ids = (byName.body as Page<TemplateDoc>).data.map((t) => t.id);
      for (const template of templatesA) expect(ids).not.toContain(template.id);
    }
  });
});

describe('a sub-user of the account', () => {
  it('sees exactly what the owner sees, in every list and every template', async () => {
    for (const path of LISTS) {
      const [asOwner, asSub] = await Promise.all([
        listAll(suite.server, ownerA.apiKey, path),
        listAll(suite.server, subA.apiKey, path),
      ]);
      expect(asSub, path).toEqual(asOwner);
    }
    for (const template of templatesA) {
      const [asOwner, asSub] = await Promise.all([
        api(suite.server, 'GET', `/api/v2/templates/${template.id}`, { key: ownerA.apiKey }),
        api(suite.server, 'GET', `/api/v2/templates/${template.id}`, { key: subA.apiKey }),
      ]);
      expect(asSub.status).toBe(200);
      expect(asSub.body).toEqual(asOwner.body);
    }
    const legacyOwner = await api(suite.server, 'POST', '/api/v0/analyses', { key: ownerA.apiKey, body: {} });
    const legacySub = await api(suite.server, 'POST', '/api/v0/analyses', { key: subA.apiKey, body: {} });
    expect(legacySub.body).toEqual(legacyOwner.body);
  });

  it('creates templates that belong to the account: in the owner’s list, editable by the owner', async () => {
    const bySub = templatesA.find((t) => t.name === 'A by sub-user')!;
    expect(bySub.userId).toBe(subA.userId);
    const ownerList = await listAll<TemplateDoc>(suite.server, ownerA.apiKey, '/api/v2/templates');
    expect(ownerList.map((t) => t.id)).toContain(bySub.id);
    const replaced = await api(suite.server, 'PUT', `/api/v2/templates/${bySub.id}`, { key: ownerA.apiKey, body: minimalBody(catalogs, { name: 'owner edit' }) });
    expect(replaced.status).toBe(200);
    // Ownership never changes, whoever replaces it.
    expect((replaced.body as TemplateDoc).userId).toBe(subA.userId);
    // And the sub-user can edit and delete the owner's.
    const ownerTemplate = await createTemplate(suite.server, ownerA.apiKey, minimalBody(catalogs, { name: 'owner’s' }));
    const subEdit = await api(suite.server, 'PUT', `/api/v2/templates/${ownerTemplate.id}`, { key: subA.apiKey, body: minimalBody(catalogs, { name: 'sub edit' }) });
    expect(subEdit.status).toBe(200);
    expect((subEdit.body as TemplateDoc).userId).toBe(ownerA.userId);
    expect((await api(suite.server, 'DELETE', `/api/v2/templates/${ownerTemplate.id}`, { key: subA.apiKey })).status).toBe(204);
  });

  it('counts toward the account’s template limit together with the owner', async () => {
    const owner = await suite.server.newAccount({ templateLimit: 4 });
    const sub = await newSubUser(suite.server, owner.accountId, 'x');
    const sub2 = await newSubUser(suite.server, owner.accountId, 'y');
    await createTemplate(suite.server, owner.apiKey, minimalBody(catalogs));
    await createTemplate(suite.server, sub.apiKey, minimalBody(catalogs));
    await createTemplate(suite.server, sub2.apiKey, minimalBody(catalogs));
    await createTemplate(suite.server, sub.apiKey, minimalBody(catalogs));
    for (const key of [owner.apiKey, sub.apiKey, sub2.apiKey]) {
      expectError(await api(suite.server, 'POST', '/api/v2/templates', { key, body: minimalBody(catalogs) }), 403, 'PLAN_LIMIT_EXCEEDED');
    }
    const list = await api(suite.server, 'GET', '/api/v2/templates', { key: owner.apiKey });
    const envelope = list.body as Page<TemplateDoc>;
    expect(envelope.total).toBe(4);
    expect(new Set(envelope.data.map((t) => t.userId))).toEqual(new Set([owner.userId, sub.userId, sub2.userId]));
  });
});

describe('template limit under concurrency', () => {
  const statuses = (responses: Array<{ status: number }>) => {
    const counts: Record<number, number> = {};
    for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
    return counts;
  };

  it('20 concurrent creates against a limit of 10: exactly 10 × 201 and 10 × 403', async () => {
    const account = await suite.server.newAccount({ templateLimit: 10 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(suite.server, 'POST', '/api/v2/templates', { key: account.apiKey, body: minimalBody(catalogs, { name: `race ${i}` }) }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 10, 403: 10 });
    for (const response of responses.filter((r) => r.status === 403)) expectError(response, 403, 'PLAN_LIMIT_EXCEEDED');
    const list = await api(suite.server, 'GET', '/api/v2/templates?limit=100', { key: account.apiKey });
    const envelope = list.body as Page<TemplateDoc>;
    expect(envelope.total).toBe(10);
    expect(envelope.data.map((t) => t.id).sort()).toEqual(
      responses.filter((r) => r.status === 201).map((r) => (r.body as TemplateDoc).id).sort(),
    );
  });

  it('owner and sub-user racing each other still stop at the limit', async () => {
    const account = await suite.server.newAccount({ templateLimit: 10 });
    const sub = await newSubUser(suite.server, account.accountId, 'racer');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(suite.server, 'POST', '/api/v2/templates', { key: i % 2 === 0 ? account.apiKey : sub.apiKey, body: minimalBody(catalogs) }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 10, 403: 10 });
    expect(((await api(suite.server, 'GET', '/api/v2/templates', { key: sub.apiKey })).body as Page<TemplateDoc>).total).toBe(10);
  });
});
