// One rule, every check: the service and `templates validate --offline` hold each template of
// the corpus (test/fixtures/template-rules/) to the same findings, path and message.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { inProcessServiceForSuite, runInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/server.js';
import { corpusFiles } from '../helpers/template-corpus.js';
import type { ValidationIssue } from '../../src/contract/index.js';

/** What the service finds in a file's bytes sent as a body: its issues, or its one message. */
async function serviceFindings(url: string, apiKey: string, path: string): Promise<{ status: number; issues: ValidationIssue[] }> {
  const response = await fetch(`${url}/api/v2/templates`, {
    method: 'POST',
    headers: { apiKey, 'content-type': 'application/json' },
    body: readFileSync(path),
  });
  const body = (await response.json()) as { message?: string; issues?: ValidationIssue[] };
  if (response.status === 201) return { status: 201, issues: [] };
  return { status: response.status, issues: body.issues ?? [{ path: '', message: body.message! }] };
}

describe('the template rules: one code path for the service and validate --offline', () => {
  const suite = inProcessServiceForSuite();
  const corpus = corpusFiles();

  it('the corpus has an invalid template for each rule and valid ones beside them', () => {
    expect(corpus.filter((file) => !file.valid).length).toBeGreaterThanOrEqual(50);
    expect(corpus.filter((file) => file.valid).length).toBeGreaterThanOrEqual(5);
  });

  it('every file: the service refuses exactly what validate --offline refuses, with the same paths and words', async () => {
    const env = { REPORTCTL_CONFIG_DIR: tempDir() };
    const validate = await runInProcess(['templates', 'validate', '--offline', '--json', ...corpus.map((file) => file.path)], { env });
    const verdicts = validate.stdout.trim().split('\n').map((line) => JSON.parse(line) as { file: string; valid: boolean; issues: ValidationIssue[] });
    expect(verdicts.map((verdict) => verdict.file)).toEqual(corpus.map((file) => file.path));
    const mismatches: string[] = [];
    for (const [index, file] of corpus.entries()) {
      const service = await serviceFindings(suite.server.url, suite.account.apiKey, file.path);
      const offline = verdicts[index]!;
      expect(file.valid ? [201] : [400, 413], file.name).toContain(service.status);
      expect(offline.valid, file.name).toBe(file.valid);
      if (JSON.stringify(offline.issues) !== JSON.stringify(service.issues)) {
        mismatches.push(`${file.name}: service ${JSON.stringify(service.issues)}, validate ${JSON.stringify(offline.issues)}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(validate.code).toBe(1);
  });

  it('a template over the stored size passes the schema but is refused by both, as the 413 says', async () => {
    const file = corpus.find((candidate) => candidate.name === 'invalid/stored-too-large.json')!;
    expect((await serviceFindings(suite.server.url, suite.account.apiKey, file.path)).status).toBe(413);
    const validate = await runInProcess(['templates', 'validate', '--offline', file.path], { env: { REPORTCTL_CONFIG_DIR: tempDir() } });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('A stored template is at most 256 KiB (as JSON, with its defaults)');
  });
});
