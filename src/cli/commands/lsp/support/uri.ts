import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** What the server makes of a document: a template, a formula file, or neither. */
export type DocumentKind = 'template' | 'formulas' | 'other';

export function kindOf(document: Pick<TextDocument, 'uri' | 'languageId'>): DocumentKind {
  const path = document.uri.replace(/[?#].*$/, '');
  if (/\.txt$/i.test(path)) return 'formulas';
  if (/\.json$/i.test(path) || document.languageId === 'json') return 'template';
  return 'other';
}

/** A `file:` URI's path; none for an editor's unsaved buffer (`untitled:`) or another scheme. */
export function filePath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
