// Recordings (support/recording.ts, recording-files.ts) against what a folder can hold: a
// FIFO, a device, a file too large or not UTF-8 among the step files; a --record folder that
// holds someone's files; and the modes recordings are written with, whatever the umask.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, cleanEnv } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/server.js';
import { paritySuite, RECORDING } from './support.js';

/** A copy of the project's recording, to spoil. */
function recordingCopy(): string {
  const dir = join(tempDir(), 'recording');
  cpSync(RECORDING, dir, { recursive: true });
  return dir;
}

const stepFiles = (dir: string) => readdirSync(dir).filter((name) => /^\d{3}-/.test(name));
const failureOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: string; message: string; exitCode: number };

describe('replaying a recording that is not what --record wrote', () => {
  const suite = paritySuite();

  it('stops at once on a FIFO among the step files, naming it (a real process, no hang)', { timeout: 30_000 }, async () => {
    const dir = recordingCopy();
    const fifo = join(dir, stepFiles(dir)[5]!);
    rmSync(fifo);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const child = spawn(process.execPath, [BIN, 'parity', '--replay', dir], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (code) => (clearTimeout(timer), resolve(code)));
    });
    expect(exited, stderr).toBe(2);
    expect(stderr).toContain(`${fifo} is not a regular file (a folder, FIFO, socket or device)`);
  });

  it('refuses a step file that is a link to a device', async () => {
    const dir = recordingCopy();
    const device = join(dir, stepFiles(dir)[0]!);
    rmSync(device);
    symlinkSync('/dev/zero', device);
    const { code, stderr } = await suite.parity(['--replay', dir]);
    expect(code).toBe(2);
    expect(failureOf(stderr).message).toBe(`${device} is not a regular file (a folder, FIFO, socket or device)`);
  });

  it('refuses a step file past what a run keeps', async () => {
    const dir = recordingCopy();
    const large = join(dir, stepFiles(dir)[0]!);
    truncateSync(large, 33 * 1024 * 1024);
    const { code, stderr } = await suite.parity(['--replay', dir]);
    expect(code).toBe(9);
    expect(failureOf(stderr)).toMatchObject({ error: 'ANSWERS_TOO_LARGE', message: `the recording's file ${large} passed the 32 MiB a parity run keeps (reading it); the run stopped` });
  });

  it('refuses a file that is not UTF-8, naming the byte', async () => {
    const dir = recordingCopy();
    const file = join(dir, 'service.json');
    const text = readFileSync(file);
    // A lone continuation byte 10 bytes in.
    writeFileSync(file, Buffer.concat([text.subarray(0, 10), Buffer.from([0x80]), text.subarray(10)]));
    const { code, stderr } = await suite.parity(['--replay', dir]);
    expect(code).toBe(2);
    expect(failureOf(stderr).message).toBe(`${file} is not UTF-8: at byte offset 10 (line 2), 0x80 is a continuation byte with no character to continue`);
  });

  it('reads only the files its manifest names, and only names a recording may have', async () => {
    const dir = recordingCopy();
    const manifest = JSON.parse(readFileSync(join(dir, 'recording.json'), 'utf8')) as { files: string[] };
    writeFileSync(join(dir, 'recording.json'), JSON.stringify({ ...manifest, files: [...manifest.files, '../../etc/passwd'] }));
    const { code, stderr } = await suite.parity(['--replay', dir]);
    expect(code).toBe(1);
    expect(failureOf(stderr).message).toBe(`${join(dir, 'recording.json')} is not a parity recording's manifest (format 2)`);
  });
});

describe('recording into a folder', () => {
  const suite = paritySuite();

  it('writes its files 0600 and its folders 0700, whatever the umask', async () => {
    const umask = process.umask(0o000);
    onTestFinished(() => void process.umask(umask));
    const dir = join(tempDir(), 'parity', 'recording');
    const { code, stderr } = await suite.parity(['--only', 'listPresets', '--record', dir]);
    expect(code, stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) expect([name, statSync(join(dir, name)).mode & 0o777]).toEqual([name, 0o600]);
  });

  it('refuses a folder that is neither empty nor a recording, and writes nothing there', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '999-customer-export.json'), '{"customers":[]}');
    const { code, stderr } = await suite.parity(['--only', 'listPresets', '--record', dir]);
    expect(code).toBe(2);
    expect(failureOf(stderr).message).toBe(`--record: ${dir} is neither empty nor a parity recording (it has no recording.json); nothing was written`);
    expect(readdirSync(dir)).toEqual(['999-customer-export.json']);
  });

  it("replaces an earlier recording's own files and leaves every other file", async () => {
    const dir = join(tempDir(), 'recording');
    expect((await suite.parity(['--only', 'listPresets', '--record', dir])).code).toBe(0);
    const presets = stepFiles(dir);
    writeFileSync(join(dir, '999-customer-export.json'), '{"customers":[]}');
    writeFileSync(join(dir, 'ignore.txt'), '# accepted\n');
    mkdirSync(join(dir, 'notes'));
    const { code, stderr } = await suite.parity(['--only', 'listQueues', '--record', dir]);
    expect(code, stderr).toBe(0);
    for (const name of presets) expect(existsSync(join(dir, name)), name).toBe(false);
    expect(stepFiles(dir).every((name) => name.includes('listQueues') || name === '999-customer-export.json')).toBe(true);
    expect(readFileSync(join(dir, '999-customer-export.json'), 'utf8')).toBe('{"customers":[]}');
    expect(readFileSync(join(dir, 'ignore.txt'), 'utf8')).toBe('# accepted\n');
    expect(existsSync(join(dir, 'notes'))).toBe(true);
    // And it replays.
    expect((await suite.parity(['--replay', dir])).code).toBe(0);
  });
});
