import { dirname, resolve } from 'node:path';
import { nameClashIssue } from '../../../../contract/index.js';
import { parseJson } from '../../../cmdutil/input.js';
import { nameIn, readFolder } from './folder.js';
import type { CheckedDocument } from './verdicts.js';

/**
 * Each checked file whose template name another `*.json` file of its folder holds (read as
 * `diff` and `apply` read it: the files beside it, whether given or not) gets that rule's
 * issue at `name`, as the language server shows it.
 */
export async function withNameClashes(documents: CheckedDocument[]): Promise<CheckedDocument[]> {
  const folders = new Map<string, Promise<Array<{ file: string; name: string | undefined }>>>();
  const namesIn = (folder: string) => {
    let names = folders.get(folder);
    if (!names) {
      names = readFolder(folder, true).then((entries) =>
        Promise.all(entries.map(async ({ file, text }) => {
          const parsed = await parseJson(text);
          return { file, name: parsed.success ? nameIn(parsed.value) : undefined };
        })),
      );
      folders.set(folder, names);
    }
    return names;
  };
  return Promise.all(
    documents.map(async (document) => {
      const name = 'body' in document && document.label !== 'stdin' ? nameIn(document.body) : undefined;
      if (name === undefined || !('validation' in document)) return document;
      const others = (await namesIn(dirname(document.label))).filter((entry) => entry.name === name && resolve(entry.file) !== resolve(document.label));
      if (others.length === 0) return document;
      const clashes = others.map((other) => nameClashIssue(name, other.file));
      const issues = document.validation.success ? clashes : [...document.validation.issues, ...clashes];
      return { ...document, validation: { success: false as const, issues } };
    }),
  );
}
