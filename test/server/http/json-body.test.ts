import { IncomingMessage } from 'node:http';
import { Socket, connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/listen.js';
import type { IssuedKey } from '../../../src/server/store/index.js';
import { api } from '../../helpers/server.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { createTemplate, expectError, expectIssues, minimalBody, readCatalogs, type CatalogsOverHttp } from '../../helpers/http.js';
import { attackedServerForSuite, elementsBody, noted } from '../../helpers/slow-clients.js';
import { drainUnread } from '../../../src/server/http/json-body.js';

/** The one way bodies are read (src/server/http/json-body.ts): JSON only, UTF-8, no value stored changed, an unread body drained. */

const suite = inProcessServiceForSuite();
let catalogs: CatalogsOverHttp;

beforeAll(async () => {
  catalogs = await readCatalogs(suite.server, suite.account.apiKey);
});

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

describe('415 UNSUPPORTED_MEDIA_TYPE', () => {
  it('POST and PUT bodies that are not application/json are refused', async () => {
    const json = JSON.stringify(minimalBody(catalogs));
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      expectError(
        await api(suite.server, 'POST', '/api/v2/templates', { key: suite.account.apiKey, rawBody: json, headers: { 'content-type': contentType } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    const doc = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs));
    expectError(
      await api(suite.server, 'PUT', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey, rawBody: json, headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(
      await api(suite.server, 'POST', '/api/v2/templates/validate-formula', {
        key: suite.account.apiKey,
        rawBody: '{"formula":"NIR"}',
        headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // The template was not changed by the refused PUT.
    expect((await api(suite.server, 'GET', `/api/v2/templates/${doc.id}`, { key: suite.account.apiKey })).body).toEqual(doc);
  });

  it.each([
    ['a media type it does not take', 'application/x-www-form-urlencoded', () => suite.account.apiKey, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a Content-Type that is not one media type', 'application/json, text/plain', () => suite.account.apiKey, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an unknown key (refused before the body)', 'application/json', () => 'rctl_unknown', 401, 'API_KEY_INVALID'],
  ])('a body refused for %s is read to its end first, so a client still sending it gets the answer, not a reset', async (_what, contentType, key, status, code) => {
    const body = Buffer.from(`{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const url = new URL(suite.server.url);
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    const head = `POST /api/v2/templates HTTP/1.1\r\nHost: ${url.host}\r\napiKey: ${key()}\r\ncontent-type: ${contentType}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    socket.write(head);
    socket.write(body.subarray(0, body.length / 2));
    // Half the body sent: the service waits for the rest instead of answering and closing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Buffer.concat(received).length).toBe(0);
    socket.end(body.subarray(body.length / 2));
    await closed;
    const answer = Buffer.concat(received).toString('utf8');
    expect(answer.startsWith(`HTTP/1.1 ${status} `), answer.slice(0, 200)).toBe(true);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: code });
  });

  it('application/json with a charset is JSON', async () => {
    const response = await api(suite.server, 'POST', '/api/v2/templates', {
      key: suite.account.apiKey,
      rawBody: JSON.stringify(minimalBody(catalogs)),
      headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(response.status).toBe(201);
  });
});

describe('item 8: values that would be stored changed are refused', () => {
  let server: RunningServer;
  let owner: IssuedKey;
  attackedServerForSuite((attacked) => ({ server, owner } = attacked));
  const withElements = (portrait: unknown[], landscape: unknown[] = []) => elementsBody(catalogs, portrait, landscape);
  const templateCount = () => server.store.templates.count(owner.accountId);

  const post = (rawBody: string) =>
    api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, rawBody, headers: { 'content-type': 'application/json' } });
  const bodyText = (fields: string) => JSON.stringify(withElements([noted(3)])).replace(/}$/, `,${fields}}`);

  it('a number too large for a double (1e309, stored as null before) is a 400 at its path, anywhere in the body', async () => {
    const before = templateCount();
    const inElement = JSON.stringify(withElements([{ ...noted(3), weight: 7 }])).replace('"weight":7', '"weight":1e309');
    expectIssues(await post(inElement), 'layouts.portrait.elements.0.weight');
    expectIssues(await post(JSON.stringify(withElements([noted(3)])).replace('"x":0', '"x":-1e400')), 'layouts.portrait.elements.0.x');
    expectIssues(
      await api(server, 'POST', '/api/v2/templates/validate-formula', {
        key: owner.apiKey,
        rawBody: '{"formula":"NIR","extra":[1,2,1e999]}',
        headers: { 'content-type': 'application/json' } }),
      'extra.2',
    );
    expect(templateCount()).toBe(before);
  });

  it('a lone surrogate in a name, a value or a property name is a 400 at its path', async () => {
    const before = templateCount();
    const named = (name: string) => JSON.stringify({ ...withElements([noted(3)]), name: 'x' }).replace('"name":"x"', `"name":"${name}"`);
    expectIssues(await post(named('lot \\ud800 7')), 'name');
    expectIssues(await post(named('\\udc00')), 'name');
    expectIssues(await post(bodyText('"layouts":{"portrait":{"elements":[{"type":"map","x":0,"y":0,"width":1,"height":1,"a\\ud83d":1}]}}')), 'layouts.portrait.elements.0.a\ud83d');
    // A pair is a character like any other.
    expect((await post(named('lot \\ud83c\\udf3d 7'))).status).toBe(201);
    expect(templateCount()).toBe(before + 1);
  });

  it('control characters: refused in names (NUL, ESC, tab, newline) and in every other string but tab, CR and LF', async () => {
    const before = templateCount();
    for (const name of ['lot\u00007', '\u001b]0;pwned\u0007', 'lot\t7', 'lot\n7', 'lot\u009b7']) {
      expectIssues(await api(server, 'POST', '/api/v2/templates', { key: owner.apiKey, body: { ...minimalBody(catalogs), name } }), 'name');
    }
    const escaped = await api(server, 'POST', '/api/v2/templates', {
      key: owner.apiKey,
      body: withElements([{ ...noted(3), text: 'a\u001b[2Jb' }]) });
    expectIssues(escaped, 'layouts.portrait.elements.0.text');
    expect(templateCount()).toBe(before);
    const multiline = await createTemplate(server, owner.apiKey, withElements([{ ...noted(3), text: 'line 1\r\nline 2\tend' }]));
    expect(multiline.layouts!.portrait!.elements[0]!.text).toBe('line 1\r\nline 2\tend');
    const formula = await api(server, 'POST', '/api/v2/templates/validate-formula', {
      key: owner.apiKey,
      body: { formula: '(NIR - R)\n/ (NIR + R + eps)' } });
    expect(formula.status).toBe(200);
  });
});
