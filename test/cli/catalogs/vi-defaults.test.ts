import { describe, expect, it } from 'vitest';
import { registerCatalogsViDefaults } from '../../../src/cli/commands/catalogs/vi-defaults.js';
import { ANSI } from '../../helpers/cli.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite, runInProcess } from '../../helpers/in-process.js';
import { api } from '../../helpers/server.js';
import { expectJsonAsServed, expectNoColour } from './support.js';

describe('catalogs vi-defaults flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerCatalogsViDefaults(program.command('catalogs'), deps, wrap, runF),
    [
      [['catalogs', 'vi-defaults'], { options: {} }],
      [['catalogs', 'vegetation-index-defaults', '--json'], { options: { json: true } }],
      [['catalogs', 'vi-defaults', 'NDVI'], { usage: /too many arguments/ }],
    ],
  );
});

describe('catalogs vi-defaults', () => {
  const suite = inProcessServiceForSuite();

  it('--json prints what the service returned', async () => {
    await expectJsonAsServed(suite, 'vi-defaults', '/api/v2/catalogs/vegetation-index-defaults');
  });

  it('vi-defaults shows every index with its accent colour and scale, the defaults and the formula rules', async () => {
    const defaults = (await api(suite.server, 'GET', '/api/v2/catalogs/vegetation-index-defaults', { key: suite.account.apiKey })).body as {
      indexNames: string[];
      accentColors: Record<string, string>;
    };
    const result = await runInProcess(['catalogs', 'vi-defaults'], { env: suite.env });
    expect(result.code).toBe(0);
    for (const name of defaults.indexNames) expect(result.stdout).toMatch(new RegExp(`^${name}\\t${defaults.accentColors[name]}\\t`, 'm'));
    expect(result.stdout).toContain('map resolution  150 dpi');
    expect(result.stdout).toContain('every divisor must contain eps');
    expect(result.stdout).toContain('R, G, B, RE, NIR');
  });

  it('no colour codes when piped or with NO_COLOR, even when FORCE_COLOR asks for them', async () => {
    const forced = await runInProcess(['catalogs', 'vi-defaults'], { env: { ...suite.env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ANSI); // the check below would notice colour
    await expectNoColour(suite, 'vi-defaults');
    const noColorFlag = await runInProcess(['catalogs', 'vi-defaults', '--no-color'], { env: { ...suite.env, FORCE_COLOR: '1' } });
    expect(noColorFlag.stdout).not.toMatch(ANSI);
  });

  it('with colour, each accent swatch is painted in exactly its 24-bit colour', async () => {
    const defaults = (await api(suite.server, 'GET', '/api/v2/catalogs/vegetation-index-defaults', { key: suite.account.apiKey })).body as {
      accentColors: Record<string, string>;
    };
    const result = await runInProcess(['catalogs', 'vi-defaults'], { env: suite.env, tty: { stdout: true, columns: 200 } });
    const accents = Object.values(defaults.accentColors);
    expect(accents.length).toBeGreaterThan(0);
    for (const accent of accents) {
      const [r, g, b] = [1, 3, 5].map((at) => parseInt(accent.slice(at, at + 2), 16));
      expect(result.stdout).toContain(`\u001b[38;2;${r};${g};${b}m■\u001b[39m ${accent}`);
    }
  });
});
