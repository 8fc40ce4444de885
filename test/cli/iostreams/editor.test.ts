// iostreams/editor.ts: the real editor a verb opens through deps.editor (templates edit's): $VISUAL,
// else $EDITOR, run through the shell.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EditorFailed, shellEditor } from '../../../src/cli/iostreams/editor.js';
import { IOStreams } from '../../../src/cli/iostreams/io.js';
import { tempDir } from '../../helpers/server.js';

const io = (tty: boolean) => new IOStreams({ stdin: new PassThrough(), stdout: Object.assign(new PassThrough(), tty ? { isTTY: true } : {}), stderr: new PassThrough() }, {});

describe('shellEditor', () => {
  it('picks $VISUAL, then $EDITOR, then vi only on a terminal', () => {
    expect(shellEditor({ VISUAL: 'code --wait', EDITOR: 'nano' }, io(false)).command).toBe('code --wait');
    expect(shellEditor({ EDITOR: 'nano' }, io(false)).command).toBe('nano');
    expect(shellEditor({}, io(true)).command).toBe('vi');
    expect(shellEditor({}, io(false)).command).toBeUndefined();
  });

  it('saves the text, runs the editor with arguments on the file, and returns what it saved', async () => {
    const dir = tempDir('reportctl-editor-');
    const script = join(dir, 'upper.mjs');
    writeFileSync(script, "import { readFileSync, writeFileSync } from 'node:fs';\nconst [, , suffix, file] = process.argv;\nwriteFileSync(file, readFileSync(file, 'utf8').toUpperCase() + suffix);\n");
    const file = join(dir, 'template.json');
    const editor = shellEditor({ EDITOR: `"${process.execPath}" "${script}" "!"` }, io(false));
    expect(await editor.edit(file, '{"name": "lot 7"}')).toBe('{"NAME": "LOT 7"}!');
    expect(readFileSync(file, 'utf8')).toBe('{"NAME": "LOT 7"}!');
  });

  it('an editor that exits non-zero rejects with its status', async () => {
    const file = join(tempDir('reportctl-editor-'), 'template.json');
    await expect(shellEditor({ EDITOR: 'exit 3;' }, io(false)).edit(file, '{}')).rejects.toMatchObject({ status: 3, message: 'the editor exited with status 3' });
    await expect(shellEditor({ EDITOR: 'false' }, io(false)).edit(file, '{}')).rejects.toBeInstanceOf(EditorFailed);
  });
});
