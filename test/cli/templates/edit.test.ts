import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesEdit } from '../../../src/cli/commands/templates/edit.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { createTemplate, fullBody, minimalBody } from '../../helpers/http.js';
import { inProcessServiceForSuite, scriptedEditor } from '../../helpers/in-process.js';
import { scriptedTemplates } from './support.js';

describe('templates edit flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesEdit(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'edit', 'abc123'], { options: {}, args: ['abc123'] }],
      [['templates', 'edit', 'abc123', '--json', '--no-color'], { options: { json: true, color: false }, args: ['abc123'] }],
      [['templates', 'edit'], { usage: /missing required argument 'id'/ }],
      [['templates', 'edit', 'abc123', '--editor', 'vi'], { usage: /unknown option '--editor'/ }],
    ],
  );
});

describe('templates edit', () => {
  const suite = inProcessServiceForSuite();
  const { catalogs, cli, files, getTemplate } = scriptedTemplates(suite);

  /** The edit as a person makes it: the JSON read, `change` applied, written back (`indent` 0: compact). */
  const editJson =
    (change: (template: Record<string, unknown>) => void, indent = 2) =>
    (text: string) => {
      const template = JSON.parse(text) as Record<string, unknown>;
      change(template);
      return JSON.stringify(template, null, indent);
    };

  it('replaces the template with what $EDITOR saved', async () => {
    // The real editor: EDITOR is run through the shell with the file, as on a user's machine.
    const path = join(files, 'rename.mjs');
    writeFileSync(
      path,
      `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
writeFileSync(${JSON.stringify(join(files, 'rename.path'))}, file);
const template = JSON.parse(readFileSync(file, 'utf8'));
template.name = 'edited in the editor';
writeFileSync(file, JSON.stringify(template, null, 2));
`,
    );
    const template = await createTemplate(suite.server, suite.account.apiKey, fullBody(catalogs(), 'edit me'));
    const result = await cli(suite.account, ['edit', template.id], { EDITOR: `"${process.execPath}" "${path}"` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${template.id}\n`);
    const after = await getTemplate(suite.account, template.id);
    expect(after.template.name).toBe('edited in the editor');
    expect(after.template.formula).toBe(template.formula);
    // Once sent, the temporary copy is gone.
    expect(existsSync(readFileSync(join(files, 'rename.path'), 'utf8'))).toBe(false);
  });

  it('an unchanged file sends nothing', async () => {
    const template = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs(), { name: 'leave me' }));
    const editor = scriptedEditor((text) => text);
    const result = await cli(suite.account, ['edit', template.id], {}, { editor });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/no changes/);
    expect(result.stdout).toBe('');
    expect((await getTemplate(suite.account, template.id)).template.updatedAt).toBe(template.updatedAt);
  });

  it('a file only re-formatted by the editor counts as unchanged', async () => {
    const template = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs(), { name: 'reformat me' }));
    const result = await cli(suite.account, ['edit', template.id], {}, { editor: scriptedEditor(editJson(() => {}, 0)) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/no changes/);
    expect((await getTemplate(suite.account, template.id)).template.updatedAt).toBe(template.updatedAt);
  });

  it('an invalid edit is refused locally: exit 1, nothing sent, the field named', async () => {
    const template = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs(), { name: 'break me' }));
    const editor = scriptedEditor(editJson((edited) => (edited.mapResolution = 5)));
    const result = await cli(suite.account, ['edit', template.id], {}, { editor });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('mapResolution');
    expect(result.stderr).toMatch(/nothing was sent/);
    const after = (await getTemplate(suite.account, template.id)).template;
    expect(after.updatedAt).toBe(template.updatedAt);
    expect(after.mapResolution).toBe(template.mapResolution);
    // The edit is kept for the user to fix, and the hint says where.
    const [file] = editor.opened;
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toMatchObject({ mapResolution: 5 });
    expect(result.stderr).toContain(file);
  });

  it('an editor that fails sends nothing', async () => {
    const template = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs(), { name: 'editor fails' }));
    const result = await cli(suite.account, ['edit', template.id], {}, { editor: scriptedEditor(() => ({ exitStatus: 1 })) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the editor exited with status 1; nothing was sent/);
    expect((await getTemplate(suite.account, template.id)).template.updatedAt).toBe(template.updatedAt);
  });

  it('without EDITOR or VISUAL and no terminal it is a usage error naming EDITOR', async () => {
    const template = await createTemplate(suite.server, suite.account.apiKey, minimalBody(catalogs(), { name: 'no editor' }));
    const result = await cli(suite.account, ['edit', template.id]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('EDITOR');
  });
});
