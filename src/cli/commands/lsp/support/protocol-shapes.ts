import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  MarkupKind,
  type CodeAction as LspCodeAction,
  type CompletionItem,
  type Diagnostic,
  type Range,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction } from '../../../../lsp/code-actions.js';
import type { Completion } from '../../../../lsp/completion.js';
import type { Span } from '../../../../lsp/json-text.js';
import type { Finding } from '../../../../lsp/template-findings.js';

// The lsp room's spans and findings in the protocol's shapes: ranges of lines and UTF-16
// columns, as the TextDocument counts them.

export function rangeOf(document: TextDocument, span: Span): Range {
  return { start: document.positionAt(span.offset), end: document.positionAt(span.offset + span.length) };
}

export function spanOf(document: TextDocument, range: Range): Span {
  const offset = document.offsetAt(range.start);
  return { offset, length: Math.max(document.offsetAt(range.end) - offset, 0) };
}

export function diagnosticOf(document: TextDocument, finding: Finding): Diagnostic {
  return {
    range: rangeOf(document, finding),
    severity: finding.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: 'reportctl',
    message: finding.message,
    ...(finding.formula ? { code: finding.formula.code } : {}),
    ...(finding.path !== undefined ? { data: { path: finding.path } } : {}),
    ...(finding.related ? { relatedInformation: [{ location: { uri: document.uri, range: rangeOf(document, finding.related) }, message: finding.related.message }] } : {}),
  };
}

const completionKinds: Record<Completion['kind'], CompletionItemKind> = {
  field: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  band: CompletionItemKind.Variable,
  scalar: CompletionItemKind.Constant,
  function: CompletionItemKind.Function,
};

export function completionItemOf(document: TextDocument, completion: Completion, index: number): CompletionItem {
  return {
    label: completion.label,
    kind: completionKinds[completion.kind],
    // The order given (catalog order) rather than the editor's alphabetical one.
    sortText: String(index).padStart(4, '0'),
    filterText: completion.newText,
    ...(completion.detail ? { detail: completion.detail } : {}),
    ...(completion.documentation ? { documentation: { kind: MarkupKind.Markdown, value: completion.documentation } } : {}),
    textEdit: { range: rangeOf(document, completion.replace), newText: completion.newText },
  };
}

export function codeActionOf(document: TextDocument, action: CodeAction): LspCodeAction {
  return {
    title: action.title,
    kind: CodeActionKind.QuickFix,
    ...(action.finding ? { diagnostics: [diagnosticOf(document, action.finding)] } : {}),
    ...(action.preferred ? { isPreferred: true } : {}),
    edit: { changes: { [document.uri]: action.edits.map((edit) => ({ range: rangeOf(document, edit), newText: edit.newText })) } },
  };
}
