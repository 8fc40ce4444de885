import { filePath } from './uri.js';

/** The command an editor runs to see the open template's page. */
export const PREVIEW_COMMAND = 'reportctl.preview';

/**
 * What the preview command does for a document: for now, the command line that draws its
 * page. `templates preview FILE --watch` (a page redrawn on every save) answers here once it
 * exists: this is the one place to make the command open its URL instead.
 */
export function previewOf(uri: unknown): { message: string; commandLine?: string } {
  const path = typeof uri === 'string' ? filePath(uri) : undefined;
  if (path === undefined) return { message: 'reportctl: the preview needs a saved template file (a file: URI)' };
  const commandLine = `reportctl templates preview --file ${JSON.stringify(path)} --out page.svg`;
  return { message: `reportctl: draw the page with ${commandLine}`, commandLine };
}
