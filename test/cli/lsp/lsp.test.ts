import { describe, expect, it, vi } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource } from 'vscode-jsonrpc';
import type { CodeAction, CompletionItem, Diagnostic, Hover, TextEdit } from 'vscode-languageserver-protocol';
import { registerLsp } from '../../../src/cli/commands/lsp/lsp.js';
import { templateFileJsonSchema } from '../../../src/contract/index.js';
import { generalBody, vegetationBody } from '../../contract/fixtures.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { lspForSuite, startLsp, type LspClient } from '../../helpers/lsp-client.js';
import { tempDir } from '../../helpers/server.js';
import { CORPUS, corpusFiles } from '../../helpers/template-corpus.js';

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The text with `edits` applied (non-overlapping, as a code action's are). */
function applied(text: string, edits: TextEdit[]): string {
  const offsetOf = ({ line, character }: { line: number; character: number }) => text.split('\n').slice(0, line).reduce((sum, row) => sum + row.length + 1, 0) + character;
  return [...edits]
    .sort((a, b) => offsetOf(b.range.start) - offsetOf(a.range.start))
    .reduce((result, edit) => result.slice(0, offsetOf(edit.range.start)) + edit.newText + result.slice(offsetOf(edit.range.end)), text);
}

const errorsOf = (diagnostics: Diagnostic[]) =>
  diagnostics.filter((diagnostic) => diagnostic.severity === 1).map((diagnostic) => ({ path: (diagnostic.data as { path: string }).path, message: diagnostic.message }));

describe('reportctl lsp', () => {
  itParsesFlags(registerLsp, [
    [['lsp'], { options: {} }],
    [['lsp', '--stdio'], { options: { stdio: true } }],
    [['lsp', '--offline', '--profile', 'staging'], { options: { offline: true, profile: 'staging' } }],
    [['lsp', 'file.json'], { usage: /too many arguments/ }],
  ]);

  describe('one code path with templates validate', () => {
    const suite = lspForSuite({ args: ['--offline'] });

    it('over the corpus, its errors are validate --offline --unique-names findings: same paths, same words, same order', async () => {
      const files = [...corpusFiles(), ...['lot-7.json', 'lot-7-copy.json'].map((name) => ({ name: `duplicate-names/${name}`, path: join(CORPUS, 'duplicate-names', name), valid: false }))];
      const validate = await runInProcess(['templates', 'validate', '--offline', '--unique-names', '--json', ...files.map((file) => file.path)], { env: { REPORTCTL_CONFIG_DIR: tempDir() } });
      const verdicts = validate.stdout.trim().split('\n').map((line) => JSON.parse(line) as { valid: boolean; issues: unknown[] });
      const mismatches: string[] = [];
      for (const [index, file] of files.entries()) {
        const uri = await suite.client.open(file.path, readFileSync(file.path, 'utf8'));
        const errors = errorsOf(await suite.client.diagnostics(uri));
        if (JSON.stringify(errors) !== JSON.stringify(verdicts[index]!.issues)) mismatches.push(`${file.name}: lsp ${JSON.stringify(errors)}\n  validate ${JSON.stringify(verdicts[index]!.issues)}`);
      }
      expect(mismatches).toEqual([]);
      expect(verdicts.filter((verdict) => verdict.valid).length).toBe(files.filter((file) => file.valid).length);
    }, 120_000);

    it('a file that is not JSON: the first syntax error at the line and column validate names', async () => {
      const path = join(tempDir(), 'broken.json');
      const text = '{\n  "name": "x",\n  "analysisType": }\n';
      writeFileSync(path, text);
      const validate = await runInProcess(['templates', 'validate', '--offline', path]);
      const [, line, column, reason] = /line (\d+), column (\d+): (.*)$/m.exec(validate.stdout)!;
      const [diagnostic] = await suite.client.diagnostics(await suite.client.open(path, text));
      expect(diagnostic!.range.start).toEqual({ line: Number(line) - 1, character: Number(column) - 1 });
      expect(diagnostic!.message).toBe(`not valid JSON: ${reason}`);
    });
  });

  describe('ranges, completion, hover and fixes', () => {
    const folder = tempDir('reportctl-lsp-');
    const suite = lspForSuite({ args: ['--offline'], root: folder });
    const at = (text: string, needle: string, shift = 0) => {
      const offset = text.indexOf(needle) + shift;
      const before = text.slice(0, offset).split('\n');
      return { line: before.length - 1, character: before.at(-1)!.length };
    };

    it('a formula error sits on its span inside the JSON string, escapes counted', async () => {
      const text = pretty(vegetationBody({ indexName: 'Custom_Index', formula: 'X' })).replace('"X"', '"(\\u004EIR - \\"R\\") / (nir + R + eps)"');
      const path = join(folder, 'escaped.json');
      const diagnostics = await suite.client.diagnostics(await suite.client.open(path, text));
      expect(diagnostics.map((diagnostic) => [diagnostic.message, diagnostic.range.start, diagnostic.range.end])).toEqual([
        ['formula: unexpected character `"` (at offset 7)', at(text, '\\"R'), at(text, '\\"R', 2)],
      ]);
      const fixed = text.replace('\\"R\\"', 'R');
      suite.client.change(pathToFileURL(path).href, fixed, 2);
      const [unknownBand] = await suite.client.diagnostics(pathToFileURL(path).href, 2);
      expect(unknownBand!.range).toEqual({ start: at(fixed, 'nir'), end: at(fixed, 'nir', 3) });
      const actions = (await suite.client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: pathToFileURL(path).href }, range: unknownBand!.range, context: { diagnostics: [unknownBand] } })) as CodeAction[];
      expect(actions.map((action) => action.title)).toEqual(['Change to NIR']);
      expect(JSON.parse(applied(fixed, actions[0]!.edit!.changes![pathToFileURL(path).href]!))).toMatchObject({ formula: '(NIR - R) / (NIR + R + eps)' });
    });

    it("completes the analysisType's report types with their labels, statistics not yet chosen, fields, enums and formula names", async () => {
      const text = pretty(generalBody({ reportType: '', selectedStatistics: ['totalPlants', ''], paperSize: '' }));
      const uri = await suite.client.open(join(folder, 'complete.json'), text);
      const complete = async (needle: string, shift: number) =>
        ((await suite.client.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: at(text, needle, shift) })) as CompletionItem[]) ?? [];
      const reportTypes = await complete('"reportType": ""', 15);
      expect(reportTypes.map((item) => item.label)).toEqual(['plant_count_summary', 'stand_density_map', 'spacing_uniformity', 'vigor_ndvi']);
      expect(reportTypes[0]!.detail).toBe('Plant count summary · Resumen de conteo de plantas');
      // Between the quotes: an editor that inserts at the cursor keeps one pair of them.
      expect(reportTypes[0]!.textEdit).toEqual({ range: { start: at(text, '"reportType": ""', 15), end: at(text, '"reportType": ""', 15) }, newText: 'plant_count_summary' });
      const statistics = (await complete('""\n  ]', 1)).map((item) => item.label);
      expect(statistics).toContain('plantsPerHectare');
      expect(statistics).not.toContain('totalPlants');
      expect(statistics).not.toContain('gapCount');
      expect((await complete('"paperSize": ""', 14)).map((item) => item.label)).toEqual(['letter', 'legal', 'a4', 'a3']);
      const fields = (await complete('{', 1)).map((item) => item.label);
      expect(fields).toContain('mapResolution');
      expect(fields).not.toContain('name');
      const formulaText = pretty(vegetationBody({ indexName: 'Custom_Index', formula: '(N' }));
      const formulaUri = await suite.client.open(join(folder, 'formula-complete.json'), formulaText);
      const names = (await suite.client.connection.sendRequest('textDocument/completion', { textDocument: { uri: formulaUri }, position: at(formulaText, '(N', 2) })) as CompletionItem[];
      expect(names.map((item) => item.label)).toEqual(['R', 'G', 'B', 'RE', 'NIR', 'eps', 'L', 'sqrt', 'abs']);
      expect(names.find((item) => item.label === 'NIR')!.textEdit).toEqual({ range: { start: at(formulaText, 'N"'), end: at(formulaText, 'N"', 1) }, newText: 'NIR' });
    });

    it("hovers: a field's schema description, a report type's catalog entry, a formula's bands and L", async () => {
      const text = pretty(vegetationBody({ indexName: 'Custom_Index', formula: '(NIR - R) / (NIR + R + L + eps)', saviL: 0.5 }));
      const uri = await suite.client.open(join(folder, 'hover.json'), text);
      const hover = async (needle: string, shift = 1) => (await suite.client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: at(text, needle, shift) })) as Hover | null;
      const schema = templateFileJsonSchema() as { properties: Record<string, { description: string }> };
      expect((await hover('"saviL"'))!.contents).toEqual({ kind: 'markdown', value: `**saviL**: ${schema.properties.saviL!.description}` });
      expect(JSON.stringify((await hover('"vigor_ndvi"'))!.contents)).toContain('Crop vigor (NDVI) (es: Vigor del cultivo (NDVI))');
      const formula = JSON.stringify((await hover('"(NIR'))!.contents);
      expect(formula).toContain('bands: R, NIR');
      expect(formula).toContain('uses L: yes');
    });

    it('fixes a mistyped report type (its id and category too), a mistyped statistic, and fills reportTypeId and reportCategory', async () => {
      const text = pretty(generalBody({ reportType: 'stand_density', selectedStatistics: ['totalPlant'] }));
      const path = join(folder, 'fixes.json');
      const uri = await suite.client.open(path, text);
      const diagnostics = await suite.client.diagnostics(uri);
      const actionsAt = async (diagnostic: Diagnostic) =>
        (await suite.client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } })) as CodeAction[];
      const reportType = (await actionsAt(diagnostics.find((diagnostic) => diagnostic.message === 'Invalid reportType')!))[0]!;
      expect(reportType.title).toBe('Change to "stand_density_map" (Stand density map)');
      const retyped = JSON.parse(applied(text, reportType.edit!.changes![uri]!)) as Record<string, unknown>;
      expect(retyped).toMatchObject({ reportType: 'stand_density_map', reportTypeId: 'f830214e-4a79-49d4-b97f-7490a4bc3a24', reportCategory: 'general' });
      const statistic = (await actionsAt(diagnostics.find((diagnostic) => diagnostic.message === 'Invalid selectedStatistics.0')!))[0]!;
      expect(JSON.parse(applied(text, statistic.edit!.changes![uri]!))).toMatchObject({ selectedStatistics: ['totalPlants'] });

      const { reportTypeId: _id, reportCategory: _category, ...bare } = generalBody({ reportType: 'spacing_uniformity' });
      const bareText = pretty(bare);
      const bareUri = await suite.client.open(join(folder, 'bare.json'), bareText);
      const missing = await suite.client.diagnostics(bareUri);
      expect(missing.map((diagnostic) => diagnostic.message)).toEqual(['reportTypeId is required', 'reportCategory is required']);
      const fill = ((await suite.client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri: bareUri }, range: { start: at(bareText, '"reportType"'), end: at(bareText, '"reportType"') }, context: { diagnostics: [] } })) as CodeAction[]).find((action) => action.title.startsWith('Fill'))!;
      expect(fill.title).toBe('Fill reportTypeId and reportCategory from "spacing_uniformity"');
      const filled = applied(bareText, fill.edit!.changes![bareUri]!);
      expect(JSON.parse(filled)).toMatchObject({ reportTypeId: '8f0269bb-d41c-40f4-9836-9ade10f5701f', reportCategory: 'general' });
      expect(filled).toContain('"reportType": "spacing_uniformity",\n  "reportTypeId": "8f0269bb-d41c-40f4-9836-9ade10f5701f",\n  "reportCategory": "general"\n');
    });

    it('overlaps as templates preview reports them are warnings on the element, the other element related', async () => {
      const layouts = { portrait: { elements: [{ type: 'map', x: 0, y: 0, width: 1, height: 0.8 }, { type: 'legend', x: 0.5, y: 0.7, width: 0.4, height: 0.2 }] } };
      const text = pretty(generalBody({ layouts }));
      const [overlap] = await suite.client.diagnostics(await suite.client.open(join(folder, 'overlap.json'), text));
      expect(overlap).toMatchObject({ severity: 2, message: 'The map at layouts.portrait.elements.0 overlaps the legend at layouts.portrait.elements.1.' });
      expect(overlap!.range.start).toEqual(at(text, '"map"'));
      expect(overlap!.relatedInformation![0]!.location.range.start).toEqual(at(text, '"legend"'));
    });

    it('formula files: each formula of a formulas/*.txt checked as formula check --file checks it, on its line', async () => {
      mkdirSync(join(folder, 'formulas'), { recursive: true });
      const text = '# vigour\n(NIR - R) / (NIR + R + eps)\n\nnir / (R + eps)\n';
      const [diagnostic, ...rest] = await suite.client.diagnostics(await suite.client.open(join(folder, 'formulas', 'indices.txt'), text, 'plaintext'));
      expect(rest).toEqual([]);
      expect(diagnostic).toMatchObject({ message: 'unknown band `nir` (did you mean `NIR`?)', range: { start: { line: 3, character: 0 }, end: { line: 3, character: 3 } } });
    });

    it('a name another file of the folder holds, on disk or open: at the name, the other file named from the workspace', async () => {
      writeFileSync(join(folder, 'lot-9.json'), pretty(generalBody({ name: 'Lot 9' })));
      const text = pretty(generalBody({ name: 'Lot 9' }));
      const [clash] = await suite.client.diagnostics(await suite.client.open(join(folder, 'lot-9-copy.json'), text));
      expect(clash).toMatchObject({ message: 'name: "Lot 9" is also the name in lot-9.json; each file of a folder needs its own', range: { start: at(text, '"Lot 9"') } });
    });
  });

  describe('bad input never takes it down', () => {
    const folder = tempDir('reportctl-lsp-robust-');
    const suite = lspForSuite({ args: ['--offline'], root: folder });
    const alive = async () => expect(await suite.client.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///nowhere.json' }, position: { line: 0, character: 0 } })).toBeNull();

    it('a half-typed file, change by change, gets one syntax error and no crash', async () => {
      const full = pretty(generalBody());
      const uri = await suite.client.open(join(folder, 'typing.json'), '');
      for (let length = 1, version = 2; length <= full.length; length += 7, version++) {
        suite.client.change(uri, full.slice(0, length), version);
        const diagnostics = await suite.client.diagnostics(uri, version);
        if (length < full.length - 2) expect(diagnostics.filter((diagnostic) => String(diagnostic.message).startsWith('not valid JSON')).length).toBeLessThanOrEqual(1);
      }
      await alive();
    });

    it('a 256 KiB template and a 5 MiB one: checked, and the second refused whole', async () => {
      const big = pretty(generalBody({ layouts: { portrait: { elements: Array.from({ length: 200 }, (_, i) => ({ type: 'text', x: 0, y: i / 200, width: 0.5, height: 1 / 200, text: 't'.repeat(1000) })) } } }));
      expect(big.length).toBeGreaterThan(200 * 1024);
      expect(errorsOf(await suite.client.diagnostics(await suite.client.open(join(folder, 'big.json'), big)))).toEqual([]);
      const huge = JSON.stringify({ ...generalBody(), id: 'x'.repeat(5 * 1024 * 1024) });
      expect(errorsOf(await suite.client.diagnostics(await suite.client.open(join(folder, 'huge.json'), huge)))).toEqual([{ path: '', message: 'The request body is larger than 1 MiB' }]);
    });

    it('bytes on disk that are not UTF-8: the file is refused where the editor shows U+FFFD', async () => {
      const path = join(folder, 'latin1.json');
      writeFileSync(path, Buffer.from(pretty(generalBody({ name: 'Lote Pe\u00f1on' })), 'latin1'));
      const text = readFileSync(path, 'utf8');
      const [encoding] = await suite.client.diagnostics(await suite.client.open(path, text));
      expect(encoding!.message).toBe(`The file is not valid UTF-8 (byte ${Buffer.from(pretty(generalBody({ name: 'Lote Pe' })), 'latin1').indexOf('Pe"') + 2} on disk); the service refuses it: save it as UTF-8`);
    });

    it('200 open files, one deleted while open: every one diagnosed, the deleted one still checked from the editor', async () => {
      const uris: string[] = [];
      for (let index = 0; index < 200; index++) {
        const path = join(folder, `many-${index}.json`);
        const text = pretty(generalBody({ name: `Lot ${index}`, paperSize: index % 2 ? 'a4' : 'A4' }));
        writeFileSync(path, text);
        uris.push(await suite.client.open(path, text));
      }
      const counts = await Promise.all(uris.map(async (uri) => (await suite.client.diagnostics(uri)).length));
      expect(counts).toEqual(uris.map((_, index) => (index % 2 ? 0 : 1)));
      rmSync(join(folder, 'many-0.json'));
      suite.client.change(uris[0]!, pretty(generalBody({ name: 'Lot 0', reportType: 'nope' })), 2);
      expect((await suite.client.diagnostics(uris[0]!, 2)).map((diagnostic) => diagnostic.message)).toEqual(['Invalid reportType']);
      await alive();
    }, 60_000);

    it('nonsense from the client: unknown methods are answered, bad parameters get an empty answer, garbage is survived', async () => {
      await expect(suite.client.connection.sendRequest('reportctl/nonsense', { x: 1 })).rejects.toThrow(/Unhandled method/);
      expect(await suite.client.connection.sendRequest('textDocument/completion', { textDocument: {}, position: null })).toBeNull();
      expect(await suite.client.connection.sendRequest('textDocument/codeAction', { textDocument: 42, range: 'all' })).toBeNull();
      suite.client.stdin.write('Content-Length: 12\r\n\r\n{"jsonrpc":}');
      await alive();
    });

    it('a request cancelled at once is still answered: with its result or as cancelled, never left hanging', async () => {
      const text = pretty(generalBody({ reportType: '' }));
      const uri = await suite.client.open(join(folder, 'cancelled.json'), text);
      const cancel = new CancellationTokenSource();
      const answer = suite.client.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 3, character: 17 } }, cancel.token);
      cancel.cancel();
      const settled = await answer.then(
        (items) => ({ answered: Array.isArray(items) }),
        (error: { code?: number }) => ({ cancelled: error.code === -32800 }),
      );
      expect(Object.values(settled)).toEqual([true]);
      await alive();
    });
  });

  it('at a terminal, says on stderr what it waits for', async () => {
    const { testDeps } = await import('../../helpers/test-deps.js');
    const { runLsp } = await import('../../../src/cli/commands/lsp/lsp.js');
    const terminal = testDeps({ tty: { stdin: true } });
    expect(await runLsp({}, terminal.deps)).toBe(1);
    expect(terminal.stderr()).toBe('reportctl lsp: waiting for a language client on stdin (an editor starts it; see reportctl lsp --help)\n');
    expect(terminal.stdout()).toBe('');
  });

  it('leaves with exit status 1 when the client goes without shutdown, and prints nothing on stdout but the protocol', async () => {
    const lsp = await startLsp({ args: ['--offline'] });
    lsp.stdin.end();
    expect(await lsp.exited).toBe(1);
    expect(lsp.stderr()).toBe('');
  });
});

describe("reportctl lsp: the profile's service's catalogs, cached as the CLI caches them", () => {
  const suite = inProcessServiceForSuite();
  const cacheDir = tempDir('reportctl-lsp-cache-');
  const statusOf = (lsp: LspClient) => lsp.notifications.filter((note) => note.method === 'reportctl/catalogs').map((note) => note.params as { origin: string; message: string });
  const until = async (lsp: LspClient, origin: string, pattern: RegExp) => {
    for (let waited = 0; waited < 15_000; waited += 50) {
      if (statusOf(lsp).some((status) => status.origin === origin && pattern.test(status.message))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no ${origin} status like ${pattern}: ${JSON.stringify(statusOf(lsp))}; stderr: ${lsp.stderr()}`);
  };
  const statisticsOffered = async (lsp: LspClient, folder: string) => {
    const text = pretty(generalBody({ selectedStatistics: [''] }));
    const uri = await lsp.open(join(folder, 'stats.json'), text);
    const items = (await lsp.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: text.split('\n').findIndex((line) => line.trim() === '""'), character: 5 } })) as CompletionItem[];
    return items.map((item) => item.label);
  };

  it('from the service (a statistic only it has is offered), then from the cache when it is gone, else the bundled ones; each said once', async () => {
    const { importCatalogs } = await import('../../../src/admin/operations.js');
    const { seedCatalogs } = await import('../../../src/contract/default-catalogs.js');
    importCatalogs(suite.server.running.store, { statistics: { ...seedCatalogs.statistics, counting: [...seedCatalogs.statistics.counting, 'canopyGapPct'] } });
    const env = { ...suite.env, REPORTCTL_CACHE_DIR: cacheDir };
    const online = await startLsp({ env });
    await until(online, 'service', new RegExp(`^catalogs: from the service at ${suite.server.url}$`));
    expect(await statisticsOffered(online, tempDir())).toContain('canopyGapPct');
    const logged = online.notifications.filter((note) => note.method === 'window/logMessage').map((note) => (note.params as { message: string }).message);
    expect(logged.filter((line) => line.startsWith('catalogs: from the service'))).toHaveLength(1);
    expect(await online.close()).toBe(0);

    await suite.server.stop();
    const cached = await startLsp({ env });
    await until(cached, 'cache', /^catalogs: the cached copy for http:\/\/127\.0\.0\.1:\d+; the service could not be asked: /);
    expect(await statisticsOffered(cached, tempDir())).toContain('canopyGapPct');
    expect(await cached.close()).toBe(0);

    const bundled = await startLsp({ env: { ...env, REPORTCTL_CACHE_DIR: tempDir() } });
    await until(bundled, 'bundled', /^catalogs: the ones bundled with reportctl; the service could not be asked: /);
    expect(await statisticsOffered(bundled, tempDir())).not.toContain('canopyGapPct');
    expect(await bundled.close()).toBe(0);
  }, 60_000);
});

describe('reportctl lsp: the page of the open template (reportctl.preview)', () => {
  const preview = async (client: LspClient, file: string) => {
    const uri = await client.open(file, pretty(generalBody({ name: 'Previewed from the editor' })));
    return { uri, answer: (await client.connection.sendRequest('workspace/executeCommand', { command: 'reportctl.preview', arguments: [uri] })) as { url?: string; message: string } };
  };

  it("starts templates preview --watch's page for the file and shows its one-time URL to an editor that cannot open it", async () => {
    const client = await startLsp();
    try {
      const file = join(tempDir(), 'lot-7.json');
      writeFileSync(file, pretty(generalBody({ name: 'Previewed from the editor' })));
      const { answer } = await preview(client, file);
      expect(answer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=\S+$/);
      await vi.waitFor(() => expect(client.requests).toContainEqual({ method: 'window/showMessageRequest', params: { type: 3, actions: [], message: expect.stringContaining(answer.url!) } }));
      expect(client.requests.filter((request) => request.method === 'window/showDocument')).toEqual([]);
      // The page itself is served there (its redraws are templates preview --watch's tests).
      const page = await fetch(new URL('/', answer.url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
      // Asked again, the file gets a page afresh: the first URL's server is gone.
      const again = (await preview(client, file)).answer;
      expect(new URL(again.url!).port).not.toBe(new URL(answer.url!).port);
      await expect(fetch(new URL('/', answer.url))).rejects.toThrow();
    } finally {
      expect(await client.close()).toBe(0);
    }
  });

  it('asks an editor that can (window/showDocument) to open the URL in the browser', async () => {
    const client = await startLsp({ capabilities: { window: { showDocument: { support: true } } } });
    try {
      const file = join(tempDir(), 'lot-8.json');
      writeFileSync(file, pretty(generalBody({ name: 'Previewed from the editor' })));
      const { answer } = await preview(client, file);
      expect(client.requests).toContainEqual({ method: 'window/showDocument', params: { uri: answer.url, external: true } });
      expect(client.requests.filter((request) => request.method === 'window/showMessageRequest')).toEqual([]);
    } finally {
      expect(await client.close()).toBe(0);
    }
  });

  it('a document that is not a file gets a message, and no page', async () => {
    const client = await startLsp();
    try {
      const answer = (await client.connection.sendRequest('workspace/executeCommand', { command: 'reportctl.preview', arguments: ['untitled:Untitled-1'] })) as { url?: string; message: string };
      expect(answer).toEqual({ message: 'reportctl: the preview needs a saved template file (a file: URI)' });
    } finally {
      expect(await client.close()).toBe(0);
    }
  });
});

describe('reportctl lsp --help and the README', () => {
  it("say the same: every editor's configuration in the README's \"In your editor\" is in the help, line for line", async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## In your editor'), readme.indexOf('\n## ', readme.indexOf('## In your editor') + 1));
    const blocks = [...section.matchAll(/```(lua|toml|json)\n([\s\S]*?)```/g)].map((match) => match[2]!);
    expect(blocks.length).toBe(5);
    const help = (await runInProcess(['lsp', '--help'])).stdout;
    for (const block of blocks) expect(help).toContain(block.trimEnd().split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n'));
  });
});
