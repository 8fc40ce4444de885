import { describe, expect, it } from 'vitest';
import { registerCatalogsReportTypes } from '../../../src/cli/commands/catalogs/report-types.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api, tempDir } from '../../helpers/server.js';
import { expectJsonAsServed, expectNoColour } from './support.js';

describe('catalogs report-types flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCatalogsReportTypes(program.command('catalogs'), deps, wrap, runF),
    [
      [['catalogs', 'report-types'], { options: {} }],
      [['catalogs', 'report-types', '--analysis-type', 'replanting', '--json'], { options: { analysisType: 'replanting', json: true } }],
      [['catalogs', 'report-types', '--analysis-type', 'paths'], { usage: /--analysis-type.*did you mean path\?/ }],
      [['catalogs', 'report-types', 'counting'], { usage: /too many arguments/ }],
    ],
  );
});

describe('catalogs report-types', () => {
  const suite = inProcessServiceForSuite();

  it('--json prints what the service returned', async () => {
    await expectJsonAsServed(suite, 'report-types', '/api/v2/catalogs/report-types');
  });

  it('report-types --analysis-type narrows the JSON to that array', async () => {
    const [result, expected] = await Promise.all([
      runInProcess(['catalogs', 'report-types', '--analysis-type', 'replanting', '--json'], { env: suite.env }),
      api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey }),
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual((expected.body as { replanting: unknown[] }).replanting);
  });

  it('report-types piped: one tab-separated row per entry, labels in the profile language', async () => {
    const catalog = (await api(suite.server, 'GET', '/api/v2/catalogs/report-types', { key: suite.account.apiKey })).body as Record<
      string,
      { id: string; key: string; label: { en: string; es: string }; reportCategory: string }[]
    >;
    const configDir = tempDir('reportctl-config-');
    const english = await runInProcess(['catalogs', 'report-types'], { env: { ...suite.env, REPORTCTL_CONFIG_DIR: configDir, LANG: 'C' } });
    expect(english.code).toBe(0);
    const rows = english.stdout.trim().split('\n').map((line) => line.split('\t'));
    const entries = Object.entries(catalog).flatMap(([type, list]) => list.map((entry) => ({ type, entry })));
    expect(rows).toEqual(entries.map(({ type, entry }) => [type, entry.key, entry.label.en, entry.reportCategory, entry.id]));

    expect((await runInProcess(['config', 'set', 'language', 'es'], { env: { REPORTCTL_CONFIG_DIR: configDir } })).code).toBe(0);
    const spanish = await runInProcess(['catalogs', 'report-types', '--analysis-type', 'counting'], {
      env: { ...suite.env, REPORTCTL_CONFIG_DIR: configDir, LANG: 'C' },
    });
    expect(spanish.code).toBe(0);
    expect(spanish.stdout.trim().split('\n').map((line) => line.split('\t')[2])).toEqual(catalog.counting!.map((entry) => entry.label.es));
  });

  it('no colour codes when piped or with NO_COLOR, even when FORCE_COLOR asks for them', async () => {
    await expectNoColour(suite, 'report-types');
  });
});
