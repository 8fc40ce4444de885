// Across verbs: colour, prompting and progress are deps.io's answers (IOStreams); no verb
// decides them itself or writes terminal escapes of its own (cursor control is redraw.ts's).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IOStreams, type Streams } from '../../src/cli/iostreams/io.js';
import { createTemplate, minimalBody, readCatalogs } from '../helpers/http.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter } from '../helpers/in-process.js';
import { api } from '../helpers/server.js';

const commandsDir = new URL('../../src/cli/commands/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// ESC written any way TypeScript spells it, the characters themselves, and the 8-bit CSI.
const spelt = /\\u001b|\\u\{1b\}|\\x1b|\\033|\\u009b|\\x9b/i;
const raw = [String.fromCharCode(0x1b), String.fromCharCode(0x9b)];
const hasRawEscape = (text: string) => spelt.test(text) || raw.some((char) => text.includes(char));
const ESC = String.fromCharCode(0x1b);

describe('verbs under src/cli/commands', () => {
  const files = sources(commandsDir);

  it('are found', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it.each(files.map((file) => [file.slice(commandsDir.length), file]))('%s neither decides colour, prompting or the terminal itself nor writes a raw escape', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/\bloadStyle\b|importPackage\('(chalk|ora)'\)/);
    // What io.ts reads to answer: a verb asks deps.io instead.
    expect(text).not.toMatch(/\.isTTY\b|\benv\.(NO_COLOR|FORCE_COLOR|TERM|COLORTERM|CI)\b/);
    expect(hasRawEscape(text)).toBe(false);
  });
});

describe('verbs ask deps.io whether they may prompt', () => {
  const suite = inProcessServiceForSuite();
  const cases = [
    { verb: 'templates delete', question: 'Delete template', refusal: /refusing to delete template/, args: async () => ['templates', 'delete', await newTemplate()] },
    { verb: 'admin reset', question: 'Remove every account', refusal: /refusing/, args: async () => ['admin', 'reset', '--db', suite.server.db] },
  ];

  async function newTemplate(): Promise<string> {
    const catalogs = await readCatalogs(suite.server, suite.account.apiKey);
    return (await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs))).id;
  }

  it.each(cases)('$verb without --yes refuses when io says no one can answer, though stdin and stdout are terminals', async ({ args, refusal }) => {
    // Were the verb to decide from the streams, it would ask, and this prompter fails the test.
    const result = await runInProcess(await args(), { env: suite.env, tty: { stdin: true, stdout: true }, io: { canPrompt: () => false } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(refusal);
    expect((await api(suite.server, 'GET', '/api/v2/templates', { key: suite.account.apiKey })).status).toBe(200);
  });

  it.each(cases)('$verb asks when io says someone can answer, though nothing is a terminal', async ({ args, question }) => {
    const prompter = scriptedPrompter({ kind: 'confirm', message: question, answer: false });
    const result = await runInProcess(await args(), { env: suite.env, prompter, io: { canPrompt: () => true } });
    expect(result.code, result.stderr).toBe(0);
    prompter.assertDone();
  });
});

describe('verbs ask deps.io whether to colour', () => {
  // A formula with an error: its caret is coloured, on stdout (check) or stderr (eval).
  const cases = [[['formula', 'check', 'NIR/(R+']], [['formula', 'eval', 'NIR/(R+', '--band', 'NIR=1']]];
  const terminals = { stdout: true, stderr: true };

  it.each(cases)('%j: no escape when io says colour is off, though FORCE_COLOR is set and the streams are terminals', async (args) => {
    const result = await runInProcess(args, { env: { FORCE_COLOR: '1' }, tty: terminals, io: { colorEnabled: () => false } });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('^');
    expect(result.stdout + result.stderr).not.toContain(ESC);
  });

  it.each(cases)('%j: colour when io says it is on, though NO_COLOR is set and nothing is a terminal', async (args) => {
    const result = await runInProcess(args, { env: { NO_COLOR: '1' }, io: { colorEnabled: () => true } });
    expect(result.stdout + result.stderr).toContain(`${ESC}[31m`);
  });
});

/** Streams for IOStreams; `stdin` counts how often it is read. */
function streams(tty: { stdin?: boolean; stdout?: boolean; stderr?: boolean }) {
  // A terminal as far as ora needs one: its cursor moves (here, nowhere).
  const cursor = { columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true };
  const terminal = (on: boolean | undefined) => Object.assign(new PassThrough(), on ? { isTTY: true, ...cursor } : {});
  const stdin = terminal(tty.stdin);
  const stderr = terminal(tty.stderr);
  let stdinReads = 0;
  let drawn = '';
  stderr.setEncoding('utf8').on('data', (chunk: string) => (drawn += chunk));
  const given: Streams = {
    get stdin() {
      stdinReads += 1;
      return stdin;
    },
    stdout: terminal(tty.stdout),
    stderr,
  };
  return { given, stdinReads: () => stdinReads, drawn: () => drawn };
}

describe('IOStreams', () => {
  it('colorEnabled: --no-color, then NO_COLOR, then FORCE_COLOR, then TERM=dumb, then whether that stream is a terminal', () => {
    const io = (env: Record<string, string>, tty: { stdout?: boolean; stderr?: boolean } = { stdout: true, stderr: true }) => new IOStreams(streams(tty).given, env);
    expect(io({}).colorEnabled(undefined)).toBe(true);
    expect(io({}).colorEnabled(false)).toBe(false);
    expect(io({ FORCE_COLOR: '1' }).colorEnabled(false)).toBe(false);
    expect(io({ NO_COLOR: '1', FORCE_COLOR: '1' }).colorEnabled(undefined)).toBe(false);
    expect(io({ NO_COLOR: '' }).colorEnabled(undefined)).toBe(true);
    expect(io({ FORCE_COLOR: '1' }, {}).colorEnabled(undefined)).toBe(true);
    expect(io({ FORCE_COLOR: '0' }, {}).colorEnabled(undefined)).toBe(false);
    expect(io({ TERM: 'dumb' }).colorEnabled(undefined)).toBe(false);
    expect(io({}, { stdout: true }).colorEnabled(undefined, 'stderr')).toBe(false);
    expect(io({}, { stderr: true }).colorEnabled(undefined, 'stderr')).toBe(true);
  });

  it('canPrompt: stdin and stdout terminals, no --no-input, no CI; stdin is not even read when stdout is a pipe', () => {
    const both = streams({ stdin: true, stdout: true });
    expect(new IOStreams(both.given, {}).canPrompt(false)).toBe(true);
    expect(new IOStreams(both.given, {}).canPrompt(true)).toBe(false);
    expect(new IOStreams(both.given, { CI: 'true' }).canPrompt(false)).toBe(false);
    expect(new IOStreams(both.given, { CI: '0' }).canPrompt(false)).toBe(true);
    const piped = streams({ stdin: true });
    expect(new IOStreams(piped.given, {}).canPrompt(false)).toBe(false);
    // Creating process.stdin costs start-up that a piped command never needs.
    expect(piped.stdinReads()).toBe(0);
  });

  it('progress draws on a terminal stderr only, and nothing once stopped before ora has loaded', async () => {
    const piped = streams({});
    new IOStreams(piped.given, {}).progress.update('reading the catalogs');
    const stopped = streams({ stderr: true });
    const early = new IOStreams(stopped.given, {}).progress;
    early.update('reading the catalogs');
    early.stop();
    const shown = streams({ stderr: true });
    const progress = new IOStreams(shown.given, {}).progress;
    progress.update('reading the catalogs');
    await expect.poll(() => shown.drawn()).toContain('reading the catalogs');
    progress.stop();
    expect(piped.drawn()).toBe('');
    expect(stopped.drawn()).toBe('');
  });

  it('progress draws nothing on a terminal 0 columns wide (ora would clear lines without end)', async () => {
    const unsized = streams({ stderr: true });
    let cleared = 0;
    Object.assign(unsized.given.stderr, {
      columns: 0,
      clearLine: () => {
        // Bounded, so a spinner that did start fails this test instead of hanging it.
        if (++cleared > 1000) throw new Error('clearing without end');
        return true;
      },
    });
    const sized = streams({ stderr: true });
    const progress = new IOStreams(unsized.given, {}).progress;
    const other = new IOStreams(sized.given, {}).progress;
    progress.update('reading the catalogs');
    other.update('reading the catalogs');
    // Once ora has drawn on the other terminal, it has had its chance to draw on this one.
    await expect.poll(() => sized.drawn()).toContain('reading the catalogs');
    progress.stop();
    other.stop();
    expect(unsized.drawn()).toBe('');
    expect(cleared).toBe(0);
  });

  it('withStdout: another stdout, the same answers and progress', () => {
    const io = new IOStreams(streams({ stdin: true, stdout: true }).given, {});
    io.canPrompt = () => false;
    const filtered = io.withStdout(new PassThrough());
    expect(filtered.isStdoutTTY()).toBe(false);
    expect(filtered.canPrompt(false)).toBe(false);
    expect(filtered.progress).toBe(io.progress);
  });
});
