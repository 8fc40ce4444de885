// Across verbs: a hostile or intercepted service must not
// drive the user's terminal. The service's strings carry ESC, BEL, OSC 0 (title), CSI 2J
// (clear), OSC 8 (hidden link), CR and C1 CSI (U+009B); whatever the CLI prints from them, on
// stdout, stderr or in a prompt, must show those characters, not send them. A real `serve`
// refuses such names, so a fake service answers here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runCli } from '../../src/cli/program.js';
import { fakeService, json, type FakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/server.js';
import type { Editor } from '../../src/cli/iostreams/editor.js';
import type { Prompter } from '../../src/cli/iostreams/prompter.js';
import { presets, seedCatalogs } from '../../src/contract/default-catalogs.js';
import { CUSTOM_INDEX } from '../../src/contract/catalogs.js';
import { scriptedEditor, scriptedPrompter, testDeps, type ScriptedPrompter } from '../helpers/in-process.js';

const HOSTILE = '\u001b]0;pwned\u0007x\u001b[2J\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007\u009b31m\rforged\u007f\u0000';
/** How HOSTILE prints: every control character as \xHH. */
const SHOWN = '\\x1b]0;pwned\\x07x\\x1b[2J\\x1b]8;;https://evil.example/\\x07click\\x1b]8;;\\x07\\x9b31m\\x0dforged\\x7f\\x00';
// Anything a terminal acts on, but the tab and newline the CLI itself writes between cells and lines.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const STAMP = '2026-01-01T00:00:00.000Z';
const TEMPLATE = {
  id: 'tpl-1',
  userId: 'u-1',
  name: HOSTILE,
  analysisType: 'counting',
  reportType: `stand_count${HOSTILE}`,
  reportTypeId: 'rt-1',
  reportCategory: 'general',
  selectedStatistics: [HOSTILE],
  createdAt: STAMP,
  updatedAt: STAMP,
};
const RUN = {
  id: 'run-1',
  name: HOSTILE,
  queueId: 'q-1',
  status: 'completed',
  estimatedHa: 12,
  steps: [{ order: 1, lotId: `lot${HOSTILE}`, analysisType: 'counting', status: 'completed', analysisId: 'a-1', finishedAt: STAMP }],
  createdAt: STAMP,
  startedAt: STAMP,
  finishedAt: STAMP,
};
const page = (data: unknown[]) => ({ total: data.length, page: 1, limit: 20, data });

/** Every exact body the fake service sent, by path, for the --json comparisons. */
const sent = new Map<string, string>();

function hostileService(): Promise<FakeService> {
  return fakeService((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]!;
    // Node refuses C0 in a header value but sends C1 (latin1 bytes): undici reads U+009B back.
    const headers = { 'x-hostile': '\u009b2J\u009b31mred' };
    const answer = (status: number, body: unknown) => sent.set(`${request.method} ${path}`, json(response, status, body, headers));
    if (request.method === 'GET' && path === '/api/v2/templates') answer(200, page([TEMPLATE]));
    else if (request.method === 'GET' && path === '/api/v2/templates/tpl-1') answer(200, TEMPLATE);
    else if (request.method === 'GET' && path === '/api/v2/queue-runs') answer(200, page([RUN]));
    else if (request.method === 'POST' && path === '/api/v2/templates') {
      answer(400, { error: 'VALIDATION_FAILED', message: `rejected ${HOSTILE}`, issues: [{ path: `name${HOSTILE}`, message: HOSTILE }] });
    } else if (request.method === 'POST' && path === '/api/v2/templates/validate-formula') {
      answer(200, { valid: false, usesL: false, errors: [{ message: HOSTILE, offset: 0, length: 3 }] });
    } else answer(404, { error: 'NOT_FOUND', message: `no such thing ${HOSTILE}` });
  });
}

/**
 * `reportctl ARGS` in this process, stdout a terminal or a pipe; colours off, so any ESC is the
 * service's. With a prompter, stdin is a terminal too (prompts need both).
 */
async function cli(service: FakeService, args: string[], tty: boolean, fakes: { prompter?: Prompter; editor?: Editor } = {}) {
  const { deps, stdout, stderr } = testDeps({
    env: { REPORTCTL_BASE_URL: service.url, REPORTCTL_API_KEY: 'rctl_fake', REPORTCTL_CONFIG_DIR: tempDir(), NO_COLOR: '1' },
    // stderr stays a pipe: on a terminal it would carry the spinner's own escape sequences.
    tty: { stdout: tty, stdin: fakes.prompter !== undefined, columns: 200 },
    ...fakes,
  });
  const code = await runCli(args, deps);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout(), stderr: stderr() };
}

function expectNoRawControls(text: string): void {
  const at = text.search(RAW_CONTROL);
  expect(at, `raw control character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`).toBe(-1);
}

describe('strings from the service never reach the terminal raw (issue 17, item 3)', () => {
  it.each([
    ['a table on a terminal', ['templates', 'list'], true],
    ['tab-separated rows when piped', ['templates', 'list'], false],
    ['queue runs, piped', ['queue-runs', 'list'], false],
    ['one template on a terminal', ['templates', 'get', 'tpl-1'], true],
    ['one run and its steps on a terminal', ['queue-runs', 'get', 'run-1'], true],
    ['watch, piped (a line per change)', ['queue-runs', 'watch', 'run-1'], false],
    ['watch on a terminal (redrawn in place)', ['queue-runs', 'watch', 'run-1'], true],
    ['formula messages from the service', ['formula', 'validate', 'NIR'], true],
  ] as const)('%s', async (_what, args, tty) => {
    const service = await hostileService();
    const result = await cli(service, [...args], tty);
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
    expectNoRawControls(result.stdout);
    expectNoRawControls(result.stderr);
    expect(result.stdout + result.stderr).toContain(SHOWN.slice(0, 60));
  });

  it('tab-separated rows keep their columns: the escaped name is one cell', async () => {
    const service = await hostileService();
    const result = await cli(service, ['templates', 'list'], false);
    const cells = result.stdout.trimEnd().split('\n')[0]!.split('\t');
    expect(cells.slice(0, 4)).toEqual(['tpl-1', SHOWN, 'counting', `stand_count${SHOWN}`]);
  });

  it('error messages, issues and hints from the service', async () => {
    const service = await hostileService();
    // The queues' list is not there: its 404 comes back as the service worded it.
    const missing = await cli(service, ['queues', 'list'], true);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe(`reportctl: 404 NOT_FOUND: no such thing ${SHOWN}\n`);

    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify({ name: 'ok', analysisType: 'counting', reportType: 'stand_count', reportTypeId: 'rt-1', reportCategory: 'general' }));
    const rejected = await cli(service, ['templates', 'create', '--file', file], true);
    expect(rejected.code).toBe(1);
    expectNoRawControls(rejected.stderr);
    expect(rejected.stderr).toContain(`  name${SHOWN}: ${SHOWN}\n`);
  });

  it('--verbose traces: the service\'s headers', async () => {
    const service = await hostileService();
    const result = await cli(service, ['--verbose', 'templates', 'list'], false);
    expect(result.code).toBe(0);
    expectNoRawControls(result.stderr);
    // Node sends the header as UTF-8 and undici reads it as latin1: Â then the C1 CSI.
    expect(result.stderr).toContain('< x-hostile: \u00c2\\x9b2J\u00c2\\x9b31mred');
  });

  it('--json piped is byte for byte what the service sent', async () => {
    const service = await hostileService();
    const list = await cli(service, ['--json', 'templates', 'list'], false);
    expect(list.stdout).toBe(`${sent.get('GET /api/v2/templates')}\n`);
    const one = await cli(service, ['--json', 'templates', 'get', 'tpl-1'], false);
    expect(one.stdout).toBe(`${sent.get('GET /api/v2/templates/tpl-1')}\n`);
    const watched = await cli(service, ['--json', 'queue-runs', 'watch', 'run-1'], false);
    expect(JSON.parse(watched.stdout)).toEqual(RUN);
  });

  it('--json on a terminal: the same JSON value, with the C1 and DEL that JSON leaves raw escaped', async () => {
    const service = await hostileService();
    const result = await cli(service, ['--json', 'templates', 'get', 'tpl-1'], true);
    expectNoRawControls(result.stdout);
    expect(JSON.parse(result.stdout)).toEqual(TEMPLATE);
    expect(result.stdout).toContain('\\u009b31m');
  });
});

// Issue 28, item 1: the audit found six paths still raw (the delete question, `deleted
// template ID`, the id create, replace and edit print and their stderr line, the wizard's
// formula question). Here every string the service sends carries HOSTILE, and every verb that
// prints is driven, its prompts included.

/** Strings the contract or the verbs' logic needs as they are (enums, timestamps, ids). */
const KEPT = new Set(['id', 'createdAt', 'updatedAt', 'startedAt', 'finishedAt', 'analysisType', 'reportCategory', 'paperSize', 'type', 'status']);
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** `value` with HOSTILE after every string, but those the contract needs as they are. */
function hostile<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (KEPT.has(key) || HEX_COLOUR.test(value) ? value : `${value}${HOSTILE}`) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => hostile(item, key)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, hostile(item, name)])) as T;
  return value;
}

const ndviPreset = presets.find((preset) => preset.id === 'preset-counting-vigor-ndvi')!;
const VIGOR = seedCatalogs.reportTypes.counting.find((entry) => entry.key === 'vigor_ndvi')!;
function everyString(id: string) {
  const catalogs = hostile(seedCatalogs);
  // The wizard asks for a formula only for this index.
  catalogs.vegetationIndexDefaults.indexNames.push(CUSTOM_INDEX);
  return {
    template: { ...hostile({ ...ndviPreset.seedPayload, userId: 'u-1', createdAt: STAMP, updatedAt: STAMP }), id } as Record<string, unknown>,
    presets: hostile(presets),
    catalogs,
    queue: hostile({ id: 'q-1', name: 'Lot queue', steps: [{ order: 1, lotId: 'lot-1', analysisType: 'counting' }], createdAt: STAMP }),
    run: hostile(RUN),
    analysis: hostile({ id: 'a-1', lotId: 'lot-1', analysisType: 'counting', status: 'completed', queueRunId: 'run-1', createdAt: STAMP, finishedAt: STAMP }),
  };
}

/** A service whose every string is hostile; its template has id `templateId`. */
function everyStringService(templateId = 'tpl-1'): Promise<FakeService> {
  const data = everyString(templateId);
  return fakeService((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]!;
    const route = `${request.method} ${path}`;
    const answer = (status: number, body: unknown) => json(response, status, body);
    if (route === 'GET /api/v2/templates') answer(200, page([data.template]));
    else if (route === 'GET /api/v2/templates/presets') answer(200, page(data.presets));
    else if (route === 'POST /api/v2/templates') answer(201, data.template);
    else if (route === 'POST /api/v2/templates/validate-formula') answer(200, { valid: false, usesL: false, errors: [{ message: HOSTILE, offset: 0, length: 3 }] });
    else if (/^GET \/api\/v2\/templates\/[^/]+$/.test(route)) answer(200, data.template);
    else if (/^PUT \/api\/v2\/templates\/[^/]+$/.test(route)) answer(200, data.template);
    else if (/^DELETE \/api\/v2\/templates\/[^/]+$/.test(route)) response.writeHead(204).end();
    else if (route === 'GET /api/v2/catalogs/report-types') answer(200, data.catalogs.reportTypes);
    else if (route === 'GET /api/v2/catalogs/statistics') answer(200, data.catalogs.statistics);
    else if (route === 'GET /api/v2/catalogs/vegetation-index-defaults') answer(200, data.catalogs.vegetationIndexDefaults);
    else if (route === 'GET /api/v2/queues') answer(200, page([data.queue]));
    else if (route === 'GET /api/v2/queue-runs') answer(200, page([data.run]));
    else if (route === 'GET /api/v2/analyses') answer(200, page([data.analysis]));
    else answer(404, { error: 'NOT_FOUND', message: `no such thing ${HOSTILE}` });
  });
}

/** A template document of the service's own catalog entry: what create, replace and edit send. */
function bodyFile(): string {
  const file = join(tempDir(), 'body.json');
  writeFileSync(file, JSON.stringify(validBody()));
  return file;
}
function validBody() {
  const entry = hostile(VIGOR);
  return { name: 'Lot 7', analysisType: 'counting', reportType: entry.key, reportTypeId: entry.id, reportCategory: 'vegetation_index', indexName: 'NDVI' };
}

/** Every string a prompt was given: its message, default, choices and what validate said. */
function promptTexts(prompter: ScriptedPrompter): string[] {
  return prompter.asked.flatMap(({ question, refused }) => {
    const choices = (question.choices as { name?: string; description?: string }[] | undefined) ?? [];
    const texts = [question.message, question.default, ...choices.flatMap((choice) => [choice.name, choice.description]), ...refused];
    return texts.filter((text): text is string => typeof text === 'string');
  });
}

/** How HOSTILE shows: made visible (the default), as JSON escapes, or in the page sketch. */
const SHOWN_AS_JSON = '\\u001b]0;pwned\\u0007x\\u001b[2J';
const SHOWN_IN_SKETCH = '\ufffd]0;pwned\ufffdx\ufffd[2J';
type Form = { args: string[]; tty: boolean; prompter?: () => ScriptedPrompter; editor?: () => Editor; shows?: false | string };
const forms: Record<string, Form> = {
  'templates list, a table': { args: ['templates', 'list'], tty: true },
  'templates list --json on a terminal': { args: ['--json', 'templates', 'list'], tty: true, shows: SHOWN_AS_JSON },
  'templates get, on a terminal': { args: ['templates', 'get', 'tpl-1'], tty: true },
  'templates get, piped': { args: ['templates', 'get', 'tpl-1'], tty: false },
  'templates presets, a table': { args: ['templates', 'presets'], tty: true },
  'templates presets, piped': { args: ['templates', 'presets'], tty: false },
  'templates create --file: the id, and the created line': { args: ['templates', 'create', '--file', '@body'], tty: false },
  'templates create --file --json on a terminal': { args: ['--json', 'templates', 'create', '--file', '@body'], tty: true, shows: SHOWN_AS_JSON },
  'templates create --from-preset': { args: ['templates', 'create', '--from-preset', 'preset-counting-summary', '--name', 'Lot 7'], tty: false },
  'templates create, guided, its formula question quoting the catalog': {
    args: ['templates', 'create'],
    tty: true,
    prompter: () =>
      scriptedPrompter(
        { kind: 'select', message: 'Start from', answer: 'From scratch' },
        { kind: 'select', message: 'Analysis type', answer: 'counting' },
        { kind: 'select', message: 'Report type', answer: VIGOR.label.en },
        { kind: 'checkbox', message: 'Statistics', answer: [] },
        { kind: 'select', message: 'Vegetation index', answer: CUSTOM_INDEX },
        // NIR is not among the hostile bands: refused, with a message that quotes them.
        { kind: 'input', message: 'Formula', answer: 'NIR' },
        { kind: 'input', message: 'Formula', answer: '0.5' },
        { kind: 'select', message: 'Paper size', answer: 'letter' },
        { kind: 'input', message: 'Template name', answer: 'Lot 7' },
        { kind: 'confirm', message: 'Create this template?', answer: true },
      ),
  },
  'templates create from a preset, guided': {
    args: ['templates', 'create'],
    tty: true,
    prompter: () =>
      scriptedPrompter(
        { kind: 'select', message: 'Start from', answer: 'Plant count summary' },
        { kind: 'input', message: 'Template name', answer: 'Lot 7' },
        { kind: 'confirm', message: 'Create this template?', answer: false },
      ),
  },
  'templates replace: the id, and the replaced line': { args: ['templates', 'replace', 'tpl-1', '--file', '@body'], tty: false },
  'templates edit: the id, and the replaced line': {
    args: ['templates', 'edit', 'tpl-1'],
    tty: false,
    editor: () => scriptedEditor(() => JSON.stringify(validBody())),
  },
  'templates delete --yes: the deleted line': { args: ['templates', 'delete', 'tpl-1', '--yes'], tty: false, shows: false },
  'templates delete: its question names the template': {
    args: ['templates', 'delete', 'tpl-1'],
    tty: true,
    prompter: () => scriptedPrompter({ kind: 'confirm', message: 'Delete template', answer: true }),
  },
  'templates delete without --yes, piped: the refusal names the template': { args: ['templates', 'delete', 'tpl-1'], tty: false },
  'templates validate: issues and hints quoting the catalogs': { args: ['templates', 'validate', '@invalid'], tty: true },
  'templates preview, the sketch': { args: ['templates', 'preview', 'tpl-1'], tty: true, shows: SHOWN_IN_SKETCH },
  'templates preview --json on a terminal': { args: ['--json', 'templates', 'preview', 'tpl-1'], tty: true, shows: SHOWN_AS_JSON },
  'catalogs report-types, a table': { args: ['catalogs', 'report-types'], tty: true },
  'catalogs report-types, piped': { args: ['catalogs', 'report-types'], tty: false },
  'catalogs statistics': { args: ['catalogs', 'statistics'], tty: true },
  'catalogs vi-defaults': { args: ['catalogs', 'vi-defaults'], tty: true },
  'catalogs vi-defaults, piped': { args: ['catalogs', 'vi-defaults'], tty: false },
  'catalogs report-types --json on a terminal': { args: ['--json', 'catalogs', 'report-types'], tty: true, shows: SHOWN_AS_JSON },
  'queues list, a table': { args: ['queues', 'list'], tty: true },
  'queues list, piped': { args: ['queues', 'list'], tty: false },
  'queue-runs list, a table': { args: ['queue-runs', 'list'], tty: true },
  'queue-runs get, piped': { args: ['queue-runs', 'get', 'run-1'], tty: false },
  'analyses list, a table': { args: ['analyses', 'list'], tty: true },
  'analyses list, piped': { args: ['analyses', 'list'], tty: false },
  'api GET on a terminal': { args: ['api', 'GET', '/api/v2/templates'], tty: true, shows: SHOWN_AS_JSON },
  'api GET, an error': { args: ['api', 'GET', '/api/v2/nothing'], tty: true },
  'auth status': { args: ['auth', 'status'], tty: true, shows: false },
  doctor: { args: ['doctor'], tty: true, shows: false },
  'formula validate, the service\'s messages': { args: ['formula', 'validate', 'NIR'], tty: true },
  '__complete template-ids --names': { args: ['__complete', 'template-ids', '--names'], tty: false },
  '__complete preset-ids --names': { args: ['__complete', 'preset-ids', '--names'], tty: false },
  '__complete run-ids --names': { args: ['__complete', 'run-ids', '--names'], tty: false },
};

/** A file argument: a valid body, or one whose report type is not in the catalogs. */
function withFiles(args: string[]): string[] {
  return args.map((arg) => {
    if (arg === '@body') return bodyFile();
    if (arg !== '@invalid') return arg;
    const file = join(tempDir(), 'invalid.json');
    writeFileSync(file, JSON.stringify({ ...validBody(), reportType: 'no_such_report' }));
    return file;
  });
}

describe('every string from the service, on every path that prints it (issue 28, item 1)', () => {
  it.each(Object.entries(forms))('%s', async (_what, form) => {
    const service = await everyStringService();
    const prompter = form.prompter?.();
    const editor = form.editor?.();
    const result = await cli(service, withFiles(form.args), form.tty, { ...(prompter ? { prompter } : {}), ...(editor ? { editor } : {}) });
    // Done, refused or not found; never an unexpected error.
    expect([0, 1, 2, 4], result.stderr).toContain(result.code);
    expect(result.stderr).not.toContain('unexpected error');
    prompter?.assertDone();
    expectNoRawControls(result.stdout);
    expectNoRawControls(result.stderr);
    const prompts = prompter ? promptTexts(prompter) : [];
    for (const text of prompts) expectNoRawControls(text);
    if (form.shows !== false) expect([result.stdout, result.stderr, ...prompts].join('\n')).toContain(form.shows ?? SHOWN.slice(0, 40));
  });

  it('create, replace, edit and delete print the id the service gave, checked', async () => {
    const service = await everyStringService();
    const created = await cli(service, ['templates', 'create', '--file', bodyFile()], false);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toBe('tpl-1\n');
    expect(created.stderr).toBe(`created template tpl-1 (${visibleName()})\n`);
    const deleted = await cli(service, ['templates', 'delete', 'tpl-1', '--yes'], false);
    expect(deleted.stderr).toBe('deleted template tpl-1\n');
  });

  it.each([
    ['create', ['templates', 'create', '--file', '@body']],
    ['replace', ['templates', 'replace', 'Lot', '--file', '@body']],
    ['edit', ['templates', 'edit', 'Lot']],
    ['delete', ['templates', 'delete', 'Lot', '--yes']],
    ['get', ['templates', 'get', 'Lot']],
  ])('%s refuses an id that is not the service\'s, and prints nothing of it', async (_verb, args) => {
    const service = await everyStringService(`tpl-1${HOSTILE}`);
    const named = withFiles(args).map((arg) => (arg === 'Lot' ? String(everyString('x').template.name) : arg));
    const result = await cli(service, named, false, { editor: scriptedEditor() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expectNoRawControls(result.stderr);
    expect(result.stderr).toContain("an id that is not the service's");
    // Nothing was changed with that id.
    expect(service.requests.filter((request) => request.method === 'PUT' || request.method === 'DELETE')).toEqual([]);
  });
});

function visibleName(): string {
  return `${ndviPreset.seedPayload.name as string}${SHOWN}`;
}
