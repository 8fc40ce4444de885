import { readFileSync } from 'node:fs';

/** Whether the package of `specifier` is an ES module only (no `require` condition). */
export function isEsmOnly(specifier) {
  // The package of a subpath import (`diff/lib/diff/array.js`, `@scope/name/sub`).
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const manifest = JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8'));
  const conditions = JSON.stringify(manifest.exports ?? {});
  return manifest.type === 'module' && !conditions.includes('"require"');
}
