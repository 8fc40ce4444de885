import {
  CodeActionKind,
  createConnection,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type WatchDog,
} from 'vscode-languageserver';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { ExitCode, type ExitCodeValue } from '../../../cmdutil/errors.js';
import type { Language } from './language.js';
import { PREVIEW_COMMAND } from './preview-command.js';
import { filePath } from './uri.js';

declare const __VERSION__: string | undefined;

export interface LanguageServerOptions extends GlobalOptions {
  offline?: boolean | undefined;
}

/**
 * A language server on the command's stdin and stdout until the client says `exit` or closes
 * the stream: the exit status is 0 after a `shutdown`, 1 otherwise, as the protocol asks.
 */
export function serveLanguage(options: LanguageServerOptions, deps: CliDeps): Promise<ExitCodeValue> {
  return new Promise((resolve) => {
    let shutdown = false;
    const finish = (code: number) => resolve(code === 0 ? ExitCode.ok : ExitCode.failed);
    const watchDog: WatchDog = {
      get shutdownReceived() {
        return shutdown;
      },
      set shutdownReceived(value: boolean) {
        shutdown = value;
      },
      initialize: () => undefined,
      exit: finish,
    };
    const reader = new StreamMessageReader(deps.io.stdin);
    const writer = new StreamMessageWriter(deps.io.stdout);
    const connection = createConnection((logger) => createProtocolConnection(reader, writer, logger), watchDog);
    reader.onClose(() => finish(shutdown ? 0 : 1));
    wire(connection, options, deps);
    connection.listen();
  });
}

const capabilities: InitializeResult['capabilities'] = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
  completionProvider: { triggerCharacters: ['"'] },
  hoverProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
  executeCommandProvider: { commands: [PREVIEW_COMMAND] },
};

function wire(connection: Connection, options: LanguageServerOptions, deps: CliDeps): void {
  const documents = new TextDocuments(TextDocument);
  let root: string | undefined;
  let canShowDocument = false;
  let language: Language | undefined;
  // Loaded after `initialize` is answered, or on the first message that needs it.
  const ready = async () => (language ??= (await import('./language.js')).startLanguage(connection, documents, options, deps, () => root, { canShowDocument: () => canShowDocument }));
  /** A handler that answers `empty`, and says why in the log, when it fails: the editor keeps working. */
  const guarded =
    <P, R>(empty: R, answer: (language: Language, params: P) => R) =>
    async (params: P): Promise<R> => {
      try {
        return answer(await ready(), params);
      } catch (error) {
        connection.console.error(`reportctl: ${error instanceof Error ? error.message : String(error)}`);
        return empty;
      }
    };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    root = folder ? filePath(folder) : undefined;
    canShowDocument = params.capabilities.window?.showDocument?.support === true;
    return { capabilities, serverInfo: { name: 'reportctl', version: typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev' } };
  });
  connection.onInitialized(guarded(undefined, (language) => void language.revalidate()));
  documents.onDidChangeContent(({ document }) => void guarded(undefined, (language) => language.changed(document))(undefined));
  documents.onDidSave(({ document }) => void guarded(undefined, (language) => language.saved(document))(undefined));
  documents.onDidClose(({ document }) => void guarded(undefined, (language) => language.closed(document))(undefined));
  connection.onCompletion(guarded(null, (language, params) => language.completion(params)));
  connection.onHover(guarded(null, (language, params) => language.hover(params)));
  connection.onCodeAction(guarded(null, (language, params) => language.codeAction(params)));
  connection.onExecuteCommand(guarded(null, (language, params) => language.executeCommand(params)));
  documents.listen(connection);
}
