import { describe, expect, it } from 'vitest';
import { registerTemplatesPresets } from '../../../src/cli/commands/templates/presets.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import { api } from '../../helpers/server.js';
import { scriptedTemplates } from './support.js';

describe('templates presets flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesPresets(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'presets'], { options: {} }],
      [['templates', 'presets', '--all', '--wide', '--json'], { options: { all: true, wide: true, json: true } }],
      [['templates', 'presets', '--limit', '5', '--page', '3'], { options: { limit: 5, page: 3 } }],
      [['templates', 'presets', '--limit', 'many'], { usage: /--limit.*expected a whole number/ }],
      [['templates', 'presets', 'counting'], { usage: /too many arguments/ }],
    ],
  );
});

describe('templates presets', () => {
  const suite = inProcessServiceForSuite();
  const { cli } = scriptedTemplates(suite);

  it('presets --json prints the service\'s page of presets', async () => {
    const result = await cli(suite.account, ['presets', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual((await api(suite.server, 'GET', '/api/v2/templates/presets', { key: suite.account.apiKey })).body);
  });
});
