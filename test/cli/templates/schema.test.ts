import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getLanguageService, TextDocument, type JSONSchema } from 'vscode-json-languageservice';
import { registerTemplatesSchema } from '../../../src/cli/commands/templates/schema.js';
import { generalBody, vegetationBody } from '../../contract/fixtures.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/server.js';
import { accountOn } from './support.js';

describe('templates schema flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesSchema(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'schema'], { options: {} }],
      [['templates', 'schema', 'extra'], { usage: /too many arguments/ }],
      [['templates', 'schema', '--offline'], { usage: /unknown option '--offline'/ }],
    ],
  );
});

/** The schema as `templates schema` prints it, parsed. */
async function printedSchema(): Promise<JSONSchema> {
  const printed = await runInProcess(['templates', 'schema'], { env: {} });
  expect(printed.code, printed.stderr).toBe(0);
  expect(printed.stderr).toBe('');
  return JSON.parse(printed.stdout) as JSONSchema;
}

/** The README's VS Code settings: the mapping of template files to the schema file its sh line writes. */
function readmeMapping(): { fileMatch: string[]; url: string } {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const settings = /```json\n(\{ "json\.schemas"[\s\S]*?)```/.exec(readme);
  expect(settings, 'the README shows .vscode/settings.json').not.toBeNull();
  const [mapping] = (JSON.parse(settings![1]!) as { 'json.schemas': Array<{ fileMatch: string[]; url: string }> })['json.schemas'];
  expect(readme).toContain(`reportctl templates schema > ${mapping!.url.replace(/^\.\//, '')}`);
  return mapping!;
}

/** VS Code's JSON language service (the real package), with the schema mapped to templates/*.json as the README does. */
async function editorOn(text: string) {
  const service = getLanguageService({});
  const { fileMatch, url } = readmeMapping();
  service.configure({ validate: true, schemas: [{ uri: new URL(url, 'file:///project/').href, fileMatch, schema: await printedSchema() }] });
  const document = TextDocument.create('file:///project/templates/lot-7.json', 'json', 1, text);
  const parsed = service.parseJSONDocument(document);
  return { service, document, parsed, diagnostics: () => service.doValidation(document, parsed) };
}

describe('templates schema in an editor', () => {
  const suite = inProcessServiceForSuite();

  it('a file as `templates pull` writes it has no diagnostics, vegetation-index fields included', async () => {
    const { run, create } = await accountOn(suite.server);
    await create(generalBody({ name: 'Stand count', paperSize: 'a4' }));
    await create(vegetationBody({ name: 'Custom vigour', indexName: 'Custom_Index', formula: '(NIR - R) / (NIR + R + L + eps)', saviL: 0.5 }));
    const dir = tempDir();
    const pulled = await run(['templates', 'pull', dir]);
    expect(pulled.code, pulled.stderr).toBe(0);
    for (const file of ['stand-count.json', 'custom-vigour.json']) {
      const { diagnostics } = await editorOn(readFileSync(join(dir, file), 'utf8'));
      expect(await diagnostics(), file).toEqual([]);
    }
  });

  it('a misspelt analysisType is marked at its value, with the valid values', async () => {
    const text = `${JSON.stringify(generalBody({ analysisType: 'countng' }), null, 2)}\n`;
    const { document, diagnostics } = await editorOn(text);
    const found = await diagnostics();
    expect(found).toHaveLength(1);
    const start = text.indexOf('"countng"');
    expect(found[0]!.range).toEqual({ start: document.positionAt(start), end: document.positionAt(start + '"countng"'.length) });
    expect(found[0]!.message).toMatch(/counting.*replanting.*path/);
  });

  it('fields the service refuses are marked too: an unknown field, a quoted number, a formula without Custom_Index', async () => {
    const text = JSON.stringify(generalBody({ mapResolution: '300', colour: 'red', formula: 'NIR' }), null, 2);
    const { document, diagnostics } = await editorOn(text);
    const marked = (await diagnostics()).map((diagnostic) => document.getText(diagnostic.range));
    expect(marked).toEqual(expect.arrayContaining(['"300"', '"colour"']));
    expect(marked.length).toBeGreaterThanOrEqual(3);
  });

  it('completion inside analysisType offers the three values; a field shows its description', async () => {
    const text = '{\n  "name": "Lot 7",\n  "analysisType": ""\n}\n';
    const { service, document, parsed } = await editorOn(text);
    const inside = document.positionAt(text.indexOf('""') + 1);
    const completion = await service.doComplete(document, inside, parsed);
    expect(completion!.items.map((item) => item.label).sort()).toEqual(['"counting"', '"path"', '"replanting"']);
    const hover = await service.doHover(document, document.positionAt(text.indexOf('"name"') + 2), parsed);
    expect(JSON.stringify(hover?.contents)).toMatch(/unique in the account/);
  });
});

it('templates schema loads no service client', async () => {
  // No base URL or key is needed; a service that is not there is never asked.
  const printed = await runInProcess(['templates', 'schema'], { env: { REPORTCTL_BASE_URL: 'http://127.0.0.1:9' } });
  expect(printed.code).toBe(0);
});
