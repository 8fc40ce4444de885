import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Catalogs } from '../../../../contract/index.js';
import { templateCodeActions } from '../../../../lsp/code-actions.js';
import { templateCompletions } from '../../../../lsp/completion.js';
import { templateHover } from '../../../../lsp/hover.js';
import { previewOf, PREVIEW_COMMAND } from './preview-command.js';
import { codeActionOf, completionItemOf, rangeOf, spanOf } from './protocol-shapes.js';
import type { Analyses } from './workspace.js';

/**
 * Completion, hover, code actions and the preview command. A request about a document that
 * is not open, or that the client sends malformed, gets an empty answer, never an error the
 * editor would show on every keystroke.
 */
export function registerFeatures(connection: Connection, documents: TextDocuments<TextDocument>, analyses: Analyses, catalogs: () => Catalogs): void {
  const guarded = <P, R>(empty: R, answer: (params: P) => R) => (params: P): R => {
    try {
      return answer(params);
    } catch (error) {
      connection.console.error(`reportctl: ${error instanceof Error ? error.message : String(error)}`);
      return empty;
    }
  };
  const analysisOf = (uri: unknown) => {
    const document = typeof uri === 'string' ? documents.get(uri) : undefined;
    const analysis = document ? analyses.of(document) : undefined;
    return document && analysis ? { document, analysis } : undefined;
  };
  connection.onCompletion(guarded(null, (params) => {
    const open = analysisOf(params.textDocument?.uri);
    if (!open) return null;
    const offset = open.document.offsetAt(params.position);
    return templateCompletions(open.analysis, offset, catalogs()).map((completion, index) => completionItemOf(open.document, completion, index));
  }));
  connection.onHover(guarded(null, (params) => {
    const open = analysisOf(params.textDocument?.uri);
    const hover = open ? templateHover(open.analysis, open.document.offsetAt(params.position), catalogs()) : undefined;
    return hover && open ? { contents: { kind: 'markdown', value: hover.contents }, range: rangeOf(open.document, hover) } : null;
  }));
  connection.onCodeAction(guarded(null, (params) => {
    const open = analysisOf(params.textDocument?.uri);
    if (!open) return null;
    return templateCodeActions(open.analysis, spanOf(open.document, params.range), catalogs()).map((action) => codeActionOf(open.document, action));
  }));
  connection.onExecuteCommand(guarded(null, (params) => {
    if (params.command !== PREVIEW_COMMAND) return null;
    const preview = previewOf(params.arguments?.[0]);
    void connection.window.showInformationMessage(preview.message);
    return preview;
  }));
}
