import { beforeAll, describe, expect, it } from 'vitest';
import { registerTemplatesGet } from '../../../src/cli/commands/templates/get.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { ANSI } from '../../helpers/cli.js';
import { createTemplate, fullBody, type TemplateDoc } from '../../helpers/http.js';
import { inProcessServiceForSuite } from '../../helpers/in-process.js';
import type { IssuedKey } from '../../helpers/server.js';
import { scriptedTemplates } from './support.js';

describe('templates get flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesGet(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'get', '3c44560e'], { options: {}, args: ['3c44560e'] }],
      [['templates', 'get', 'Crop vigor (NDVI)', '--json'], { options: { json: true }, args: ['Crop vigor (NDVI)'] }],
      [['--base-url', 'http://127.0.0.1:4747', '--api-key', 'rctl_x', 'templates', 'get', 'abc123'], { options: { baseUrl: 'http://127.0.0.1:4747', apiKey: 'rctl_x' }, args: ['abc123'] }],
      [['templates', 'get'], { usage: /missing required argument 'id'/ }],
      [['templates', 'get', 'abc123', '--yes'], { usage: /unknown option '--yes'/ }],
    ],
  );
});

describe('templates get', () => {
  const suite = inProcessServiceForSuite();
  const { catalogs, cli, getTemplate } = scriptedTemplates(suite);

  let account: IssuedKey;
  let template: TemplateDoc;

  beforeAll(async () => {
    account = await suite.server.newAccount();
    template = await createTemplate(suite.server, account.apiKey, fullBody(catalogs(), 'get me'));
  });

  it('--json prints the document as the service returns it', async () => {
    const result = await cli(account, ['get', template.id, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual((await getTemplate(account, template.id)).template);
  });

  it('without --json shows the fields for a person, plain when piped', async () => {
    const result = await cli(account, ['get', template.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stdout).toContain(template.name);
    expect(result.stdout).toContain(template.formula!);
  });

  it('an unknown id is exit 4', async () => {
    const result = await cli(account, ['get', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/not found/i);
  });

  it('another account\'s template is exit 4 as well', async () => {
    const stranger = await suite.server.newAccount();
    expect((await cli(stranger, ['get', template.id])).code).toBe(4);
  });

  it('no key is exit 3 with a hint on how to set one', async () => {
    const result = await cli(account, ['get', template.id], { REPORTCTL_API_KEY: undefined });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/auth login|REPORTCTL_API_KEY/);
    expect(result.stdout).toBe('');
  });

  it('an unreachable service is exit 6', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const result = await cli(account, ['get', template.id], { REPORTCTL_BASE_URL: 'http://127.0.0.1:1' });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/cannot reach|ECONNREFUSED/);
  });
});
