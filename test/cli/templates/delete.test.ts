import { describe, expect, it } from 'vitest';
import { registerTemplatesDelete } from '../../../src/cli/commands/templates/delete.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { createTemplate, minimalBody, readCatalogs, type TemplateDoc } from '../../helpers/http.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter, type ScriptedAnswer } from '../../helpers/in-process.js';
import { api } from '../../helpers/server.js';
import { scriptedTemplates } from './support.js';

describe('templates delete flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesDelete(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'delete', 'abc123'], { options: {}, args: ['abc123'] }],
      [['templates', 'delete', 'abc123', '--yes'], { options: { yes: true }, args: ['abc123'] }],
      [['templates', 'rm', 'Crop vigor', '-y', '--json'], { options: { yes: true, json: true }, args: ['Crop vigor'] }],
      [['--no-input', '--profile', 'field', 'templates', 'delete', 'abc123'], { options: { input: false, profile: 'field' }, args: ['abc123'] }],
      [['templates', 'delete'], { usage: /missing required argument 'id'/ }],
      [['templates', 'delete', 'a', 'b'], { usage: /too many arguments/ }],
      [['templates', 'delete', 'abc123', '--force'], { usage: /unknown option '--force'/ }],
    ],
  );
});

describe('templates delete on a terminal', () => {
  const suite = inProcessServiceForSuite();
  /** `reportctl templates ARGS` in this process, stdin and stdout a terminal, the questions answered by `script`. */
  function withAnswers(args: string[], script: ScriptedAnswer[]) {
    const prompter = scriptedPrompter(...script);
    const result = runInProcess(['templates', ...args], { env: { ...suite.env, LANG: 'en_US.UTF-8', LC_ALL: undefined }, tty: { stdin: true, stdout: true }, prompter });
    return { prompter, result };
  }

  it('delete asks first, and "no" (the default) keeps the template', async () => {
    const catalogs = await readCatalogs(suite.server, suite.account.apiKey);
    const created = await api(suite.server, 'POST', '/api/v2/templates', {
      key: suite.account.apiKey,
      body: { name: 'keep me', analysisType: 'counting', reportType: catalogs.reportTypes.counting[0]!.key, reportTypeId: catalogs.reportTypes.counting[0]!.id, reportCategory: catalogs.reportTypes.counting[0]!.reportCategory },
    });
    const id = (created.body as TemplateDoc).id;
    const question = `Delete template "keep me" (${id.slice(0, 8)})?`;
    const keep = withAnswers(['delete', id], [{ kind: 'confirm', message: question, answer: (asked: { default?: boolean }) => asked.default }]);
    const kept = await keep.result;
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain('not deleted');
    expect(keep.prompter.asked[0]!.question.default).toBe(false);
    expect((await api(suite.server, 'GET', `/api/v2/templates/${id}`, { key: suite.account.apiKey })).status).toBe(200);

    const sure = await withAnswers(['delete', id], [{ kind: 'confirm', message: question, answer: true }]).result;
    expect(sure.code, sure.stderr).toBe(0);
    expect(sure.stderr).toContain(`deleted template ${id}`);
    expect((await api(suite.server, 'GET', `/api/v2/templates/${id}`, { key: suite.account.apiKey })).status).toBe(404);
  });
});

describe('templates delete from a script', () => {
  const suite = inProcessServiceForSuite();
  const { catalogs, cli, getTemplate } = scriptedTemplates(suite);

  it('needs --yes without a terminal; with it, deletes; a second time is exit 4', async () => {
    const account = await suite.server.newAccount();
    const template = await createTemplate(suite.server, account.apiKey, minimalBody(catalogs(), { name: 'delete me' }));

    const refused = await cli(account, ['delete', template.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await getTemplate(account, template.id)).status).toBe(200);

    const deleted = await cli(account, ['delete', template.id, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe('');
    expect((await getTemplate(account, template.id)).status).toBe(404);

    const again = await cli(account, ['delete', template.id, '--yes']);
    expect(again.code).toBe(4);
  });
});
