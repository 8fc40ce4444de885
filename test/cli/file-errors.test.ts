// Across verbs: a file or folder the file system refuses is said in words, naming
// the flag it came from (`cannot read nope.txt (--file): no such file`), never Node's `ENOENT: …`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainError } from '../../src/cli/cmdutil/explain.js';
import { UsageError } from '../../src/cli/cmdutil/errors.js';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/server.js';

const suite = inProcessServiceForSuite();
const dir = tempDir();
const missing = join(dir, 'nope.txt');
const aFile = join(dir, 'plain.txt');
writeFileSync(aFile, 'NIR\n');
const aFolder = join(dir, 'folder');
mkdirSync(aFolder);
const RAW = /ENOENT|EISDIR|ENOTDIR|EACCES|no such file or directory,/;

describe('files the file system refuses', () => {
  it.each([
    [['formula', 'check', '--file', missing], `cannot read ${missing} (--file): no such file`, 2],
    [['formula', 'check', '--file', aFolder], `cannot read ${aFolder} (--file): it is a directory, not a file`, 2],
    [['templates', 'create', '--file', missing], `cannot read ${missing} (--file): no such file`, 2],
    [['templates', 'replace', 'abcdef12-0000-4000-8000-000000000000', '--file', aFolder], `cannot read ${aFolder} (--file): it is a directory, not a file`, 2],
    [['templates', 'diff', missing], `cannot read the folder ${missing}: no such file`, 2],
    [['templates', 'apply', aFile], `cannot read the folder ${aFile}: not a directory`, 2],
    [['templates', 'pull', join(aFile, 'sub')], `cannot read the folder ${join(aFile, 'sub')}: not a directory`, 2],
    [['serve', '--db', '/proc/x.db'], 'cannot open /proc/x.db (--db): no such file', 1],
    [['admin', 'export', '--db', join(aFile, 'x.db')], `cannot open ${join(aFile, 'x.db')} (--db): not a directory`, 1],
    [['admin', 'import', '--db', join(dir, 'new.db'), '--file', missing], `cannot read ${missing} (--file): no such file`, 2],
    [['serve', '--db', ':memory:', '--import', missing], `cannot read ${missing} (--import): no such file`, 2],
  ])('%j', async (argv, message, code) => {
    const result = await runInProcess(argv, { env: suite.env });
    expect(result.stderr, result.stderr).toContain(`reportctl: ${message}`);
    expect(result.stderr).not.toMatch(RAW);
    expect(result.code).toBe(code);
  });

  it('says a file system code in words wherever a message carries one', () => {
    const node = Object.assign(new Error("EACCES: permission denied, open '/x/y'"), { code: 'EACCES', path: '/x/y', syscall: 'open' });
    expect(explainError(node).lines).toEqual(['reportctl: cannot read /x/y: permission denied']);
    expect(explainError(new UsageError('cannot read the folder d: EROFS')).lines).toEqual(['reportctl: cannot read the folder d: the file system is read-only']);
    const wrapped = new Error('Cannot use database /d.db: x', { cause: Object.assign(new Error('x'), { code: 'ENOSPC', path: '/d.db', syscall: 'write' }) });
    expect(explainError(wrapped).lines).toEqual(['reportctl: cannot write /d.db: no space left on the device']);
  });
});
