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
import { dirname } from 'node:path';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { ExitCode, type ExitCodeValue } from '../../../cmdutil/errors.js';
import { CatalogSource, type CatalogStatus } from './catalog-source.js';
import { FolderNames } from './folder-names.js';
import { registerFeatures } from './features.js';
import { PREVIEW_COMMAND } from './preview-command.js';
import { Analyses, filePath } from './workspace.js';
import { diagnosticOf } from './protocol-shapes.js';

declare const __VERSION__: string | undefined;

/** The notification that tells the editor where the catalogs come from (`CatalogStatus`). */
export const CATALOG_STATUS = 'reportctl/catalogs';

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

function wire(connection: Connection, options: LanguageServerOptions, deps: CliDeps): void {
  const documents = new TextDocuments(TextDocument);
  let root: string | undefined;
  const openTexts = () => new Map(documents.all().flatMap((document) => {
    const path = filePath(document.uri);
    return path === undefined ? [] : [[path, document.getText()] as const];
  }));
  const catalogs = new CatalogSource(options, deps, (status: CatalogStatus) => {
    void connection.sendNotification(CATALOG_STATUS, status);
    connection.console.info(status.message);
    for (const document of documents.all()) diagnose.schedule(document.uri);
  });
  const analyses = new Analyses(() => catalogs.current, new FolderNames(() => root), openTexts);
  const diagnose = diagnosisQueue(connection, documents, analyses);

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    root = folder ? filePath(folder) : undefined;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: ['"'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: [PREVIEW_COMMAND] },
      },
      serverInfo: { name: 'reportctl', version: typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev' },
    };
  });
  connection.onInitialized(() => void catalogs.revalidate());
  documents.onDidChangeContent(({ document }) => diagnose.schedule(document.uri));
  documents.onDidSave(({ document }) => {
    void catalogs.revalidate();
    // A save may give a sibling its name, or take it away.
    const path = filePath(document.uri);
    for (const other of documents.all()) if (path !== undefined && filePath(other.uri) !== undefined && dirname(filePath(other.uri)!) === dirname(path)) diagnose.schedule(other.uri);
  });
  documents.onDidClose(({ document }) => {
    analyses.forget(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });
  registerFeatures(connection, documents, analyses, () => catalogs.current);
  documents.listen(connection);
}

/**
 * Diagnostics one document at a time, the latest changed first, each sent only if the
 * document has not changed meanwhile; a burst of changes to one document costs one check.
 */
function diagnosisQueue(connection: Connection, documents: TextDocuments<TextDocument>, analyses: Analyses) {
  const pending: string[] = [];
  let running = false;
  const drain = async () => {
    for (let uri = pending.pop(); uri !== undefined; uri = pending.pop()) {
      const document = documents.get(uri);
      if (!document) continue;
      try {
        const findings = await analyses.findings(document);
        if (documents.get(uri)?.version !== document.version) continue;
        await connection.sendDiagnostics({ uri, version: document.version, diagnostics: findings.map((finding) => diagnosticOf(document, finding)) });
      } catch (error) {
        connection.console.error(`reportctl: could not check ${uri}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    running = false;
  };
  return {
    schedule(uri: string) {
      const at = pending.indexOf(uri);
      if (at >= 0) pending.splice(at, 1);
      pending.push(uri);
      if (running) return;
      running = true;
      setImmediate(() => void drain());
    },
  };
}
