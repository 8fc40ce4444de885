// What the templates verbs' tests share: the CLI run as a script on the suite's service, an
// account of its own per test, and the template files they write and read.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import type { Template } from '../../../src/contract/index.js';
import type { CliResult } from '../../helpers/cli.js';
import { readCatalogs, type CatalogsOverHttp, type Page, type TemplateDoc } from '../../helpers/http.js';
import { vegetationBody } from '../../contract/fixtures.js';
import { runInProcess, type InProcessOptions } from '../../helpers/in-process.js';
import { api, tempDir, type IssuedKey, type ServiceUnderTest } from '../../helpers/server.js';

/** A new account on `server`, and how to run reportctl with its key. */
export async function accountOn(server: ServiceUnderTest, options: { templateLimit?: number } = {}) {
  const key = await server.newAccount(options);
  const env = { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: key.apiKey };
  return {
    key,
    env,
    run: (args: string[], options: InProcessOptions = {}) => runInProcess(args, { ...options, env: { ...env, ...options.env } }),
    create: async (body: Record<string, unknown>) => {
      const created = await api(server, 'POST', '/api/v2/templates', { key: key.apiKey, body });
      expect(created.status, created.text).toBe(201);
      return created.body as Template;
    },
    templates: async (): Promise<Template[]> => {
      const page = await api(server, 'GET', '/api/v2/templates?limit=100', { key: key.apiKey });
      return (page.body as { data: Template[] }).data;
    },
  };
}

export const names = (templates: Template[]) => templates.map((template) => template.name).sort();
export const writeJson = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
export const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * `templates ARGS` as a script runs it (no terminal, no editor), with an account's key, on
 * the suite's service; the service's catalogs; and the reads a test checks the service with.
 * Call inside tests.
 */
export function scriptedTemplates(suite: { server: ServiceUnderTest; account: IssuedKey }) {
  const files = tempDir('reportctl-templates-cli-');
  let catalogs: CatalogsOverHttp | undefined;
  beforeAll(async () => {
    catalogs = await readCatalogs(suite.server, suite.account.apiKey);
  });
  return {
    files,
    catalogs: (): CatalogsOverHttp => catalogs!,
    cli: (account: IssuedKey, args: string[], env: Record<string, string | undefined> = {}, options: InProcessOptions = {}): Promise<CliResult> =>
      runInProcess(['templates', ...args], {
        ...options,
        env: { REPORTCTL_BASE_URL: suite.server.url, REPORTCTL_API_KEY: account.apiKey, CI: undefined, VISUAL: undefined, EDITOR: undefined, ...env },
      }),
    jsonFile: (name: string, content: unknown): string => {
      const path = join(files, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
    getTemplate: async (account: IssuedKey, id: string): Promise<{ status: number; template: TemplateDoc }> => {
      const response = await api(suite.server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey });
      return { status: response.status, template: response.body as TemplateDoc };
    },
    templateTotal: async (account: IssuedKey): Promise<number> => {
      const response = await api(suite.server, 'GET', '/api/v2/templates?limit=1', { key: account.apiKey });
      return (response.body as Page<TemplateDoc>).total;
    },
  };
}

/**
 * A vegetation-index template of nearly 256 KiB as the service stores it (JSON, no spaces):
 * a colour scale of 6,800 stops. Each `version` moves every stop's value and colour.
 */
export function colourStopsBody(version: number) {
  const stops = Array.from({ length: 6_800 }, (_, index) => ({
    value: index + version / 2,
    color: `#${(index ^ (version * 0xffffff)).toString(16).padStart(6, '0')}`,
  }));
  return vegetationBody({ name: 'Many stops', indexName: 'NDVI', colorScale: { stops } });
}

/** colourStopsBody as a template file holds it (2-space indent). */
export const colourStopsTemplate = (version: number) => JSON.stringify(colourStopsBody(version), null, 2) + '\n';

/** The ESC and BEL characters in `text`: a terminal acts on them (a title, a cleared screen). */
export const rawEscapes = (text: string) => [...text].filter((char) => char === '\u001b' || char === '\u0007');
