import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * test/fixtures/template-rules/: one invalid template per rule the service applies to a
 * template document, and valid ones beside them. Every check (the service, `templates
 * validate`, the language server) is held to the same findings over these files.
 */
export const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'template-rules');

export interface CorpusFile {
  name: string;
  path: string;
  valid: boolean;
}

export function corpusFiles(): CorpusFile[] {
  return (['valid', 'invalid'] as const).flatMap((kind) =>
    readdirSync(join(CORPUS, kind))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => ({ name: `${kind}/${name}`, path: join(CORPUS, kind, name), valid: kind === 'valid' })),
  );
}
