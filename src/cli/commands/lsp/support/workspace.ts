import { readFile } from 'node:fs/promises';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { formulaRulesOf, type Catalogs } from '../../../../contract/index.js';
import { formulaFileFindings } from '../../../../lsp/formula-findings.js';
import { analyseTemplate, type Finding, type TemplateAnalysis } from '../../../../lsp/template-findings.js';
import type { FolderNames } from './folder-names.js';
import { filePath, kindOf } from './uri.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An editor shows bytes that are not UTF-8 as U+FFFD, and the service refuses them: where the
 * text has one, the file on disk says whether it is really there or was written so.
 */
async function notUtf8(text: string, path: string): Promise<Finding | undefined> {
  const offset = text.indexOf('\uFFFD');
  if (offset < 0) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  try {
    strictUtf8.decode(bytes);
    return undefined;
  } catch {
    const at = firstInvalidByte(bytes);
    return { offset, length: 1, severity: 'error', path: '', message: `The file is not valid UTF-8 (byte ${at} on disk); the service refuses it: save it as UTF-8` };
  }
}

/** The offset of the first byte that does not begin or continue a UTF-8 sequence there. */
function firstInvalidByte(bytes: Uint8Array): number {
  const decodes = (length: number, stream: boolean) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length), { stream });
      return true;
    } catch {
      return false;
    }
  };
  // The longest prefix that decodes as the start of a text (found by halving), then back to
  // where its last, unfinished sequence began.
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (decodes(middle, true)) low = middle;
    else high = middle - 1;
  }
  while (low > 0 && !decodes(low, false)) low -= 1;
  return low;
}

/** Analyses kept for completion, hover and code actions; the others are made again when asked. */
const KEPT_ANALYSES = 8;

/**
 * Open documents' analyses: each made from the text the editor holds and the catalogs of the
 * moment, the latest few kept (a tree is many times its text: 200 open files must not hold 200).
 */
export class Analyses {
  private readonly kept = new Map<string, { version: number; catalogs: Catalogs; analysis: TemplateAnalysis }>();

  constructor(
    private readonly catalogs: () => Catalogs,
    private readonly folderNames: FolderNames,
    private readonly openTexts: () => ReadonlyMap<string, string>,
  ) {}

  /** A document's findings; a template's name is looked up in its folder. */
  async findings(document: TextDocument): Promise<Finding[]> {
    const kind = kindOf(document);
    if (kind === 'formulas') return formulaFileFindings(document.getText(), formulaRulesOf(this.catalogs().vegetationIndexDefaults));
    if (kind !== 'template') return [];
    const path = filePath(document.uri);
    const filesNamed = path !== undefined ? await this.folderNames.clashesFor(path, this.openTexts()) : undefined;
    const catalogs = this.catalogs();
    const analysis = analyseTemplate(document.getText(), { catalogs, ...(filesNamed ? { filesNamed } : {}) });
    this.keep(document, catalogs, analysis);
    const encoding = path !== undefined ? await notUtf8(document.getText(), path) : undefined;
    return encoding ? [encoding, ...analysis.findings] : analysis.findings;
  }

  /** The latest analysis of a template document, made again if it is not kept (without the folder's names). */
  of(document: TextDocument): TemplateAnalysis | undefined {
    if (kindOf(document) !== 'template') return undefined;
    const catalogs = this.catalogs();
    const kept = this.kept.get(document.uri);
    if (kept && kept.version === document.version && kept.catalogs === catalogs) return kept.analysis;
    const analysis = analyseTemplate(document.getText(), { catalogs });
    this.keep(document, catalogs, analysis);
    return analysis;
  }

  forget(uri: string): void {
    this.kept.delete(uri);
  }

  private keep(document: TextDocument, catalogs: Catalogs, analysis: TemplateAnalysis): void {
    this.kept.delete(document.uri);
    this.kept.set(document.uri, { version: document.version, catalogs, analysis });
    for (const uri of this.kept.keys()) {
      if (this.kept.size <= KEPT_ANALYSES) break;
      this.kept.delete(uri);
    }
  }
}
