// A language client for tests: the built `reportctl lsp` as a child process, spoken to with
// vscode-jsonrpc as an editor's client library speaks to it.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { BIN, cleanEnv } from './cli.js';

export interface Published {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

export interface LspClient {
  connection: MessageConnection;
  /** Notifications the server sent, in order, by method. */
  notifications: Array<{ method: string; params: unknown }>;
  /** Requests the server sent the client, in order (`window/showDocument` is answered as shown). */
  requests: Array<{ method: string; params: unknown }>;
  stdin: NodeJS.WritableStream;
  stderr(): string;
  /** The diagnostics published for `uri` (for that version, when given), waiting for them. */
  diagnostics(uri: string, version?: number, timeoutMs?: number): Promise<Diagnostic[]>;
  open(path: string, text: string, languageId?: string, version?: number): Promise<string>;
  change(uri: string, text: string, version: number): void;
  /** Shutdown and exit, as an editor leaves; the exit code. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
}

export async function startLsp(options: { args?: string[]; env?: Record<string, string | undefined>; root?: string; capabilities?: object } = {}): Promise<LspClient> {
  const child = spawn(process.execPath, [BIN, 'lsp', ...(options.args ?? [])], { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const notifications: LspClient['notifications'] = [];
  const published: Published[] = [];
  const waiters = new Set<() => void>();
  connection.onNotification((method, params) => {
    notifications.push({ method, params });
    if (method === 'textDocument/publishDiagnostics') published.push(params as Published);
    for (const wake of waiters) wake();
  });
  const requests: LspClient['requests'] = [];
  connection.onRequest((method, params) => {
    requests.push({ method, params });
    return method === 'window/showDocument' ? { success: true } : null;
  });
  connection.listen();
  const rootUri = options.root ? pathToFileURL(options.root).href : null;
  await connection.sendRequest('initialize', { processId: null, rootUri, capabilities: options.capabilities ?? {}, workspaceFolders: rootUri ? [{ uri: rootUri, name: 'root' }] : null });
  await connection.sendNotification('initialized', {});
  const diagnostics = (uri: string, version?: number, timeoutMs = 15_000) =>
    new Promise<Diagnostic[]>((resolve, reject) => {
      const look = () => {
        const found = published.findLast((entry) => entry.uri === uri && (version === undefined || entry.version === version));
        if (!found) return false;
        waiters.delete(look);
        clearTimeout(timer);
        resolve(found.diagnostics);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no diagnostics for ${uri} (version ${version}) in ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      if (!look()) waiters.add(look);
    });
  return {
    connection,
    notifications,
    requests,
    stdin: child.stdin,
    stderr: () => stderr,
    diagnostics,
    exited,
    async open(path, text, languageId = 'json', version = 1) {
      const uri = pathToFileURL(path).href;
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
      return uri;
    },
    change(uri, text, version) {
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    },
    async close() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}

/** One server for a describe block: started before its tests, shut down after them (exit 0 expected). */
export function lspForSuite(options: Parameters<typeof startLsp>[0] = {}): { client: LspClient } {
  const suite = {} as { client: LspClient };
  beforeAll(async () => {
    suite.client = await startLsp(options);
  }, 30_000);
  afterAll(async () => {
    expect(await suite.client.close()).toBe(0);
  });
  return suite;
}
