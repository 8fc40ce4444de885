import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { dirname } from 'node:path';
import type { CliDeps, GlobalOptions } from '../../../cmdutil/context.js';
import { CatalogSource, type CatalogStatus } from './catalog-source.js';
import { features } from './features.js';
import { PreviewPages, type PreviewAnswer } from './preview-command.js';
import { FolderNames } from './folder-names.js';
import { diagnosticOf } from './protocol-shapes.js';
import { filePath } from './uri.js';
import { Analyses } from './workspace.js';

/** The notification that tells the editor where the catalogs come from (`CatalogStatus`). */
export const CATALOG_STATUS = 'reportctl/catalogs';

export type Language = ReturnType<typeof startLanguage>;

/**
 * What the server knows of templates: the catalogs, the open documents' analyses and the
 * queue that diagnoses them. Loaded once `initialize` is answered (it brings the contract and
 * its schemas), so the editor's first answer waits for none of it.
 */
export function startLanguage(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  options: GlobalOptions & { offline?: boolean | undefined },
  deps: CliDeps,
  root: () => string | undefined,
  client: { canShowDocument: () => boolean },
) {
  const openTexts = () =>
    new Map(
      documents.all().flatMap((document) => {
        const path = filePath(document.uri);
        return path === undefined ? [] : [[path, document.getText()] as const];
      }),
    );
  const catalogs = new CatalogSource(options, deps, (status: CatalogStatus) => {
    void connection.sendNotification(CATALOG_STATUS, status);
    connection.console.info(status.message);
    for (const document of documents.all()) diagnose.schedule(document.uri);
  });
  const folderNames = new FolderNames(root);
  const analyses = new Analyses(() => catalogs.current, folderNames, openTexts);
  const diagnose = diagnosisQueue(connection, documents, analyses);
  const previews = new PreviewPages(() => deps.clock.now());
  return {
    ...features(documents, analyses, () => catalogs.current, (uri) => showPreview(connection, previews, uri, client.canShowDocument())),
    revalidate: () => catalogs.revalidate(),
    changed: (document: TextDocument) => diagnose.schedule(document.uri),
    saved(document: TextDocument) {
      void catalogs.revalidate();
      // A save may give a sibling its name, or take it away.
      const folder = filePath(document.uri);
      for (const other of documents.all()) {
        const path = filePath(other.uri);
        if (folder !== undefined && path !== undefined && dirname(path) === dirname(folder)) diagnose.schedule(other.uri);
      }
    },
    closed(document: TextDocument) {
      analyses.forget(document.uri);
      const path = filePath(document.uri);
      if (path !== undefined) folderNames.forget(path);
      void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    },
  };
}

/**
 * Starts the page and opens it in the browser where the editor can (`window/showDocument`);
 * elsewhere, or when it could not, its URL is shown as a message.
 */
async function showPreview(connection: Connection, previews: PreviewPages, uri: unknown, canShowDocument: boolean): Promise<PreviewAnswer> {
  const answer = await previews.show(uri);
  const opened = answer.url !== undefined && canShowDocument && (await connection.window.showDocument({ uri: answer.url, external: true }).catch(() => ({ success: false }))).success;
  if (!opened) void connection.window.showInformationMessage(answer.message);
  return answer;
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
