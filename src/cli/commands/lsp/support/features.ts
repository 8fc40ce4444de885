import type { CodeActionParams, CompletionParams, ExecuteCommandParams, HoverParams, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Catalogs } from '../../../../contract/index.js';
import { templateCodeActions } from '../../../../lsp/code-actions.js';
import { templateCompletions } from '../../../../lsp/completion.js';
import { templateHover } from '../../../../lsp/hover.js';
import { PREVIEW_COMMAND, type PreviewAnswer } from './preview-command.js';
import { codeActionOf, completionItemOf, rangeOf, spanOf } from './protocol-shapes.js';
import type { Analyses } from './workspace.js';

/**
 * Completion, hover, code actions and the preview command, in the protocol's shapes. A request
 * about a document that is not open gets an empty answer.
 */
export function features(documents: TextDocuments<TextDocument>, analyses: Analyses, catalogs: () => Catalogs, preview: (uri: unknown) => Promise<PreviewAnswer>) {
  const analysisOf = (uri: unknown) => {
    const document = typeof uri === 'string' ? documents.get(uri) : undefined;
    const analysis = document ? analyses.of(document) : undefined;
    return document && analysis ? { document, analysis } : undefined;
  };
  return {
    completion(params: CompletionParams) {
      const open = analysisOf(params.textDocument?.uri);
      if (!open) return null;
      const offset = open.document.offsetAt(params.position);
      return templateCompletions(open.analysis, offset, catalogs()).map((completion, index) => completionItemOf(open.document, completion, index));
    },
    hover(params: HoverParams) {
      const open = analysisOf(params.textDocument?.uri);
      const hover = open ? templateHover(open.analysis, open.document.offsetAt(params.position), catalogs()) : undefined;
      return hover && open ? { contents: { kind: 'markdown' as const, value: hover.contents }, range: rangeOf(open.document, hover) } : null;
    },
    codeAction(params: CodeActionParams) {
      const open = analysisOf(params.textDocument?.uri);
      if (!open) return null;
      return templateCodeActions(open.analysis, spanOf(open.document, params.range), catalogs()).map((action) => codeActionOf(open.document, action));
    },
    executeCommand(params: ExecuteCommandParams) {
      if (params.command !== PREVIEW_COMMAND) return null;
      return preview(params.arguments?.[0]);
    },
  };
}
