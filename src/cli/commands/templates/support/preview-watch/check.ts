import { open } from 'node:fs/promises';
import { decodeUtf8, NotUtf8Error } from '../../../../../encoding/utf8.js';
import type { Orientation } from '../../../../../preview/index.js';
import type { PictureEvent, PreviewEvent } from '../../../../../preview-page/protocol.js';
import { parseJson, unreadableReason } from '../../../../cmdutil/input.js';
import { explainTemplateIssues } from '../issue-hints.js';
import { verdictJson, type CheckedDocument } from '../verdicts.js';

/** The largest file read: the service takes no body over 1 MiB, so a larger file is no template. */
export const MAX_FILE_BYTES = 1024 * 1024;
const ORIENTATIONS: readonly Orientation[] = ['portrait', 'landscape'];

/** What the page shows after a save: the page drawn, or why it cannot be (src/preview-page/protocol.ts). */
export type PreviewState = PreviewEvent;
type Picture = Omit<PictureEvent, 'kind' | 'file' | 'checkedAt'>;

export interface PreviewDrawing {
  /** Only this orientation; by default each the template has (both when it has neither). */
  orientation?: Orientation | undefined;
  width?: number | undefined;
}

/** The file as saved, checked, and drawn when it is a valid template. */
export async function previewState(file: string, drawing: PreviewDrawing, now: () => number): Promise<PreviewState> {
  const read = await readSaved(file);
  const document = 'reason' in read ? { label: file, reason: read.reason } : await checkTemplateText(file, read.text);
  const checkedAt = now();
  if ('validation' in document && document.validation.success) return { kind: 'picture', file, checkedAt, ...(await draw(document.body, drawing)) };
  const issues = 'validation' in document && !document.validation.success ? document.validation.issues : [];
  const { seedCatalogs } = await import('../../../../../contract/default-catalogs.js');
  const hints = 'body' in document ? await explainTemplateIssues(issues, document.body, async () => seedCatalogs) : [];
  return { kind: 'diagnostics', checkedAt, verdict: verdictJson(document), hints };
}

/**
 * A template's text checked as `templates validate --offline` checks a file (its JSON, then
 * every rule the service applies, against the bundled catalogs): the one place the preview
 * checks, so that it says what validate says.
 */
export async function checkTemplateText(label: string, text: string): Promise<CheckedDocument> {
  const parsed = await parseJson(text);
  if (!parsed.success) return { label, reason: parsed.reason };
  const [{ checkTemplateDocument }, { seedCatalogs }] = await Promise.all([
    import('../../../../../contract/index.js'),
    import('../../../../../contract/default-catalogs.js'),
  ]);
  return { label, body: parsed.value, validation: checkTemplateDocument(parsed.value, seedCatalogs) };
}

async function draw(body: unknown, drawing: PreviewDrawing): Promise<Picture> {
  const { renderTemplateSvg } = await import('../../../../../preview/index.js');
  const layouts = (body as { layouts?: Partial<Record<Orientation, unknown>> }).layouts;
  const present = layouts === undefined ? ORIENTATIONS : ORIENTATIONS.filter((orientation) => layouts[orientation] !== undefined);
  const orientations = drawing.orientation ? [drawing.orientation] : present.length > 0 ? present : ORIENTATIONS.slice(0, 1);
  const previews = orientations.map((orientation) => renderTemplateSvg(body, { orientation, ...(drawing.width !== undefined ? { width: drawing.width } : {}) }));
  return {
    name: previews[0]!.layout.name,
    pages: previews.map((preview) => ({ orientation: preview.layout.orientation, svg: preview.svg })),
    problems: [...new Set(previews.flatMap((preview) => preview.problems))],
  };
}

/** The file's text, strict UTF-8 as every file reportctl reads, or why there is none. */
async function readSaved(file: string): Promise<{ text: string } | { reason: string }> {
  let bytes: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > MAX_FILE_BYTES) return { reason: tooLarge(size) };
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { reason: `cannot read it: ${unreadableReason(error)}` };
  }
  if (bytes.length > MAX_FILE_BYTES) return { reason: tooLarge(bytes.length) };
  try {
    return { text: decodeUtf8(bytes) };
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    return { reason: `is ${error.message}` };
  }
}

const tooLarge = (size: number) => `too large for a template: ${(size / 1024 / 1024).toFixed(1)} MiB (the service takes at most 1 MiB)`;
