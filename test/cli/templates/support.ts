// What the tests of templates pull, diff and apply share: an account of its own per test on
// the suite's service, and the template files they write and read.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Template } from '../../../src/contract/index.js';
import { runInProcess, type InProcessOptions } from '../../helpers/in-process.js';
import { api, type ServiceUnderTest } from '../../helpers/server.js';

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
