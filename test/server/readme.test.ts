// Across modules: src/server/README.md names only files that exist, and its walk names every step of the gate.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = join(import.meta.dirname, '../../src/server');
const readme = readFileSync(join(SERVER, 'README.md'), 'utf8');

/** Every file of src/server, as a path under it. */
const files = readdirSync(SERVER, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));

/** Each `path.ts` of src/server the README names (in backquotes) that is not there: one with a folder must be that file, a bare name some file of that name. */
function missing(): string[] {
  const named = [...readme.matchAll(/`([\w/.-]+\.ts)`/g)].map(([, path]) => path!).filter((path) => !path.startsWith('contract/') && !path.startsWith('test/'));
  expect(named.length).toBeGreaterThan(20);
  return named.filter((path) => (path.includes('/') ? !files.includes(path) : !files.some((file) => file === path || file.endsWith(`/${path}`))));
}

describe('src/server/README.md', () => {
  it('names only files that exist', () => {
    expect(missing()).toEqual([]);
  });

  it("walks every step of the gate: each module of admission/ but the composition and the limiter's window", () => {
    const walk = readme.slice(readme.indexOf('**The gate**'), readme.indexOf('**The body**'));
    const steps = readdirSync(join(SERVER, 'admission')).filter((name) => name !== 'index.ts' && name !== 'rolling-window.ts' && name.endsWith('.ts'));
    expect(steps.filter((step) => !walk.includes(`\`${step}\``))).toEqual([]);
  });
});
