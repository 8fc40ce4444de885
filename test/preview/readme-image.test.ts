// Across modules: the README's preview image, drawn from the demo data, kept fresh.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/preview-image.mjs', import.meta.url));
const IMAGE = new URL('../../docs/preview.svg', import.meta.url);

describe('the README preview image', () => {
  it('docs/preview.svg is what scripts/preview-image.mjs draws now', () => {
    const result = spawnSync(process.execPath, [SCRIPT, '--stdout'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^<svg [^>]*data-orientation="landscape"/);
    expect(readFileSync(IMAGE, 'utf8'), 'run: npm run preview-image').toBe(result.stdout);
  });

  it('the README shows it', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/preview\.svg\)/);
  });
});
