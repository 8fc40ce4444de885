import { describe, expect, it } from 'vitest';
import { registerTemplatesReplace } from '../../../src/cli/commands/templates/replace.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { createTemplate, fullBody, minimalBody } from '../../helpers/http.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { scriptedTemplates } from './support.js';

describe('templates replace flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesReplace(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'replace', 'abc123', '--file', 'template.json'], { options: { file: 'template.json' }, args: ['abc123'] }],
      [['templates', 'replace', 'Crop vigor', '-f', '-', '--json'], { options: { file: '-', json: true }, args: ['Crop vigor'] }],
      [['templates', 'replace', 'abc123'], { usage: /required option '-f, --file <path>' not specified/ }],
      [['templates', 'replace', '--file', 'template.json'], { usage: /missing required argument 'id'/ }],
      [['templates', 'replace', 'abc123', '--file'], { usage: /option '-f, --file <path>' argument missing/ }],
    ],
  );
});

describe('templates replace', () => {
  const suite = inProcessServiceForSuite();
  const { catalogs, cli, getTemplate, jsonFile } = scriptedTemplates(suite);

  it('replaces the whole document: a field left out is gone (back to its default)', async () => {
    const account = await suite.server.newAccount();
    const original = await createTemplate(suite.server, account.apiKey, fullBody(catalogs(), 'before'));
    expect(original.selectedStatistics.length).toBeGreaterThan(0);
    const { colorScale: _colorScale, selectedStatistics: _statistics, margins: _margins, ...rest } = fullBody(catalogs(), 'after');
    const result = await cli(account, ['replace', original.id, '--file', jsonFile('replace.json', rest)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${original.id}\n`);

    const { template } = await getTemplate(account, original.id);
    expect(template.name).toBe('after');
    expect(template.selectedStatistics).toEqual([]);
    expect(template.colorScale).toEqual(catalogs().viDefaults.colorScales[template.indexName!]);
    expect(template.colorScale).not.toEqual(original.colorScale);
    expect(template.margins).toEqual(catalogs().viDefaults.defaults.margins);
    expect(template.createdAt).toBe(original.createdAt);
  });

  it('an unknown id is exit 4', async () => {
    const account = await suite.server.newAccount();
    const result = await cli(account, ['replace', '00000000-0000-4000-8000-000000000000', '--file', jsonFile('replace-404.json', minimalBody(catalogs()))]);
    expect(result.code).toBe(4);
  });
});
