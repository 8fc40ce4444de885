// Across verbs: every file reportctl reads is strict UTF-8 (README, "Files are UTF-8"). Each
// entry point is fed the samples of test/helpers/not-utf8.ts (Latin-1, a lone continuation
// byte, an overlong encoding, a surrogate) and refuses each with the file's name, the byte
// offset of the first bad byte and exit 2, having sent nothing to the service and stored nothing.
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/encoding/utf8.js';
import { generalBody } from '../contract/fixtures.js';
import type { CliResult } from '../helpers/cli.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { NOT_UTF8_SAMPLES, whereIn, withSample, type NotUtf8Sample } from '../helpers/not-utf8.js';
import { tempDir } from '../helpers/server.js';
import { accountOn } from './templates/support.js';

const requests: string[] = [];
const suite = inProcessServiceForSuite({ accessLog: (line) => requests.push(line) });

/** A template file whose name holds the sample, on its second line. */
const templateText = () => JSON.stringify({ ...generalBody(), name: '@@' }, null, 2) + '\n';

interface Refused {
  /** The file as the message names it. */
  named: string | RegExp;
  /** Where the sample's first bad byte is. */
  at: { offset: number; line: number };
  /** The command, run once the files are in place. */
  run: () => Promise<CliResult>;
  /** Reads may reach the service (an edit first fetches its template); no write may. */
  readsFirst?: boolean;
  /** What must not have happened, besides a write to the service. */
  nothingStored?: () => unknown;
}

type EntryPoint = (sample: NotUtf8Sample, env: Record<string, string>) => Promise<Refused>;

/** `text` with the sample in place of `@@`, saved as DIR/NAME. */
function saved(name: string, text: string, sample: NotUtf8Sample, dir = tempDir('reportctl-utf8-')) {
  const document = withSample(text, sample);
  const file = join(dir, name);
  writeFileSync(file, document.bytes);
  return { file, dir, at: document };
}

const withFlag = (file: string, flag: string) => `cannot read ${file} (${flag}): `;

const ENTRY_POINTS: Record<string, EntryPoint> = {
  'templates create --file': async (sample, env) => {
    const { file, at } = saved('t.json', templateText(), sample);
    return { named: withFlag(file, '--file'), at, run: () => runInProcess(['templates', 'create', '--file', file], { env }) };
  },
  'templates create --file - (stdin)': async (sample, env) => {
    const at = withSample(templateText(), sample);
    return { named: withFlag('stdin', '--file'), at, run: () => runInProcess(['templates', 'create', '--file', '-'], { env, input: at.bytes }) };
  },
  'templates replace ID --file': async (sample, env) => {
    const { file, at } = saved('t.json', templateText(), sample);
    const run = () => runInProcess(['templates', 'replace', 'abcdef12-0000-4000-8000-000000000000', '--file', file], { env });
    return { named: withFlag(file, '--file'), at, run };
  },
  'templates preview --file': async (sample, env) => {
    const { file, at } = saved('t.json', templateText(), sample);
    return { named: withFlag(file, '--file'), at, run: () => runInProcess(['templates', 'preview', '--file', file], { env }) };
  },
  'templates diff DIR': async (sample, env) => {
    const { dir, file, at } = saved('lot-7.json', templateText(), sample);
    return { named: `${file} is `, at, run: () => runInProcess(['templates', 'diff', dir], { env }) };
  },
  'templates apply DIR': async (sample, env) => {
    const { dir, file, at } = saved('lot-7.json', templateText(), sample);
    return { named: `${file} is `, at, run: () => runInProcess(['templates', 'apply', dir, '--yes'], { env }) };
  },
  'templates pull DIR': async (sample, env) => {
    const { dir, file, at } = saved('lot-7.json', templateText(), sample);
    const before = readFileSync(file);
    const run = () => runInProcess(['templates', 'pull', dir], { env });
    return { named: `${file} is `, at, run, readsFirst: true, nothingStored: () => expect({ files: readdirSync(dir), same: readFileSync(file).equals(before) }).toEqual({ files: ['lot-7.json'], same: true }) };
  },
  'templates apply --plan': async (sample, env) => {
    const { file, at } = saved('plan.json', '{\n  "dir": "@@",\n  "planVersion": 1\n}\n', sample);
    return { named: `--plan: ${file} is not UTF-8: `, at, run: () => runInProcess(['templates', 'apply', '--plan', file, '--yes'], { env }) };
  },
  'templates edit (the file the editor saved)': async (sample) => {
    const account = await accountOn(suite.server);
    const { id } = await account.create(generalBody({ name: 'Lote 7' }));
    const { dir, file: edited, at } = saved('edited.json', templateText(), sample);
    // The editor as a user's: run through the shell with the file, saving the bytes it was given.
    const editor = join(dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\ncat '${edited}' > "$1"\n`);
    chmodSync(editor, 0o755);
    const run = () => runInProcess(['templates', 'edit', id], { env: { ...account.env, EDITOR: editor } });
    const unchanged = async () => expect((await account.templates()).map(({ name }) => name)).toEqual(['Lote 7']);
    return { named: /your edit \(\S+template-\S+\.json\) is /, at, run, readsFirst: true, nothingStored: unchanged };
  },
  'formula check --file': async (sample, env) => {
    const { file, at } = saved('formulas.txt', '(NIR - R) / (NIR + R + eps)\n# @@\n', sample);
    return { named: withFlag(file, '--file'), at, run: () => runInProcess(['formula', 'check', '--file', file], { env }) };
  },
  'formula check --file - (stdin)': async (sample, env) => {
    const at = withSample('# @@\nNIR - R\n', sample);
    return { named: withFlag('stdin', '--file'), at, run: () => runInProcess(['formula', 'check', '--file', '-'], { env, input: at.bytes }) };
  },
  'api POST --input': async (sample, env) => {
    const { file, at } = saved('body.json', templateText(), sample);
    return { named: withFlag(file, '--input'), at, run: () => runInProcess(['api', 'POST', 'templates', '--input', file], { env }) };
  },
  'auth login --with-key-stdin': async (sample, env) => {
    const config = tempDir('reportctl-utf8-config-');
    const at = withSample('rctl_@@\n', sample);
    const run = () => runInProcess(['auth', 'login', '--with-key-stdin'], { env: { ...env, REPORTCTL_API_KEY: '', REPORTCTL_CONFIG_DIR: config }, input: at.bytes });
    // Its first request, without a key, asks whether anything answers there: the key is never sent.
    return { named: withFlag('stdin', '--with-key-stdin'), at, run, readsFirst: true, nothingStored: () => expect(readdirSync(config)).toEqual([]) };
  },
  'the config file': async (sample, env) => {
    const { dir, file, at } = saved('config.json', '{\n  "profiles": { "@@": {} }\n}\n', sample);
    const before = readFileSync(file);
    const run = () => runInProcess(['templates', 'list'], { env: { ...env, REPORTCTL_CONFIG_DIR: dir } });
    return { named: `the config file ${file} is `, at, run, nothingStored: () => expect(readFileSync(file).equals(before)).toBe(true) };
  },
  'the config file, for a change (config set)': async (sample, env) => {
    const { dir, file, at } = saved('config.json', '{\n  "profiles": { "@@": {} }\n}\n', sample);
    const before = readFileSync(file);
    const run = () => runInProcess(['config', 'set', 'language', 'es'], { env: { ...env, REPORTCTL_CONFIG_DIR: dir } });
    return { named: `the config file ${file} is `, at, run, nothingStored: () => expect(readFileSync(file).equals(before)).toBe(true) };
  },
  'admin seed --file': async (sample, env) => {
    const { dir, file, at } = saved('fixtures.json', '{\n  "queues": [{ "name": "@@", "steps": [] }]\n}\n', sample);
    const db = join(dir, 'new.db');
    const run = () => runInProcess(['admin', 'seed', '--db', db, '--account', 'acc', '--file', file], { env });
    return { named: withFlag(file, '--file'), at, run, nothingStored: () => expect(existsSync(db)).toBe(false) };
  },
  'admin import --file': async (sample, env) => {
    const { dir, file, at } = saved('snapshot.json', '{\n  "format": "@@"\n}\n', sample);
    const db = join(dir, 'new.db');
    const run = () => runInProcess(['admin', 'import', '--db', db, '--file', file], { env });
    return { named: withFlag(file, '--file'), at, run, nothingStored: () => expect(existsSync(db)).toBe(false) };
  },
  'admin catalogs import --file': async (sample, env) => {
    const { dir, file, at } = saved('catalogs.json', '{\n  "statistics": ["@@"]\n}\n', sample);
    const db = join(dir, 'new.db');
    const run = () => runInProcess(['admin', 'catalogs', 'import', '--db', db, '--file', file], { env });
    return { named: withFlag(file, '--file'), at, run, nothingStored: () => expect(existsSync(db)).toBe(false) };
  },
  'serve --import': async (sample, env) => {
    const { dir, file, at } = saved('fixtures.json', '{\n  "format": "@@"\n}\n', sample);
    const ran = join(dir, 'ran');
    const run = () => runInProcess(['serve', '--import', file, '--port', '0', '--no-access-log', '--exec', `touch '${ran}'`], { env });
    return { named: withFlag(file, '--import'), at, run, nothingStored: () => expect(existsSync(ran)).toBe(false) };
  },
};

describe('every file is read as strict UTF-8', () => {
  describe.each(Object.entries(ENTRY_POINTS))('%s', (_entry, entryPoint) => {
    it.each(NOT_UTF8_SAMPLES)('refuses $name: the file, the offset, exit 2, nothing sent or stored', async (sample) => {
      const refused = await entryPoint(sample, suite.env);
      const { named, at } = refused;
      const seen = requests.length;
      const result = await refused.run();
      expect(result.code, result.stderr).toBe(2);
      const message = result.stderr.split('\n')[0]!;
      expect(message).toMatch(named instanceof RegExp ? named : new RegExp(escapeRegExp(named)));
      expect(message).toContain(whereIn(at));
      expect(result.stderr).toMatch(/^hint: save it as UTF-8/m);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const sent = requests.slice(seen);
      expect(refused.readsFirst ? sent.filter((line) => !/ (GET|HEAD) /.test(line)) : sent).toEqual([]);
      await refused.nothingStored?.();
    });
  });

  it('templates validate gives a file that is not UTF-8 its verdict, invalid, named, with the offset (exit 2, as for any unreadable file)', async () => {
    for (const sample of NOT_UTF8_SAMPLES) {
      const { file, at } = saved('t.json', templateText(), sample);
      const result = await runInProcess(['templates', 'validate', '--offline', file], { env: suite.env });
      expect(result.code).toBe(2);
      expect(result.stdout).toContain(`${file}: invalid: cannot read it: ${whereIn(at)}`);
    }
  });

  it('a catalog cache that is not UTF-8 is not used: the catalogs are fetched again whole and the cache rewritten', async () => {
    const env = { ...suite.env, REPORTCTL_CACHE_DIR: tempDir('reportctl-utf8-cache-') };
    const file = join(tempDir('reportctl-utf8-'), 't.json');
    writeFileSync(file, JSON.stringify(generalBody({ name: 'Lote 7' })));
    const catalogAnswers = async () => {
      const seen = requests.length;
      const result = await runInProcess(['templates', 'validate', file], { env });
      expect(result.code, result.stderr).toBe(0);
      return requests.slice(seen).map((line) => / GET \/api\/v2\/catalogs\/\S+ (\d+) /.exec(line)?.[1]);
    };
    expect(await catalogAnswers()).toEqual(['200', '200', '200']);
    // Kept, the copy is asked about with its ETags: unchanged, each is a 304.
    expect(await catalogAnswers()).toEqual(['304', '304', '304']);
    const [cacheFile] = readdirSync(env.REPORTCTL_CACHE_DIR).map((name) => join(env.REPORTCTL_CACHE_DIR, name));
    for (const sample of NOT_UTF8_SAMPLES) {
      // The same cache with a field it does not read, holding the sample: read leniently, it would still serve.
      const cache = JSON.parse(readFileSync(cacheFile!, 'utf8')) as Record<string, unknown>;
      writeFileSync(cacheFile!, withSample(JSON.stringify({ ...cache, note: '@@' }), sample).bytes);
      expect(await catalogAnswers(), sample.name).toEqual(['200', '200', '200']);
      expect(JSON.parse(decodeUtf8(readFileSync(cacheFile!)))).not.toHaveProperty('note');
    }
  });

  it('a UTF-8 byte order mark is dropped: the file reads as the text after it', async () => {
    const account = await accountOn(suite.server);
    const file = join(tempDir('reportctl-utf8-'), 'bom.json');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(generalBody({ name: 'Lote Peñón' })))]));
    const result = await runInProcess(['templates', 'create', '--file', file], { env: account.env });
    expect(result.code, result.stderr).toBe(0);
    expect((await account.templates()).map(({ name }) => name)).toEqual(['Lote Peñón']);
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
