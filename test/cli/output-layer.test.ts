// Cross-verb property: no verb decides colour or writes terminal escapes itself; style comes
// from styleFor (style.ts) or the session, cursor control from io.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const commandsDir = new URL('../../src/cli/commands/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// ESC written any way TypeScript spells it, the characters themselves, and the 8-bit CSI.
const spelt = /\\u001b|\\u\{1b\}|\\x1b|\\033|\\u009b|\\x9b/i;
const raw = [String.fromCharCode(0x1b), String.fromCharCode(0x9b)];
const hasRawEscape = (text: string) => spelt.test(text) || raw.some((char) => text.includes(char));

describe('verbs under src/cli/commands', () => {
  const files = sources(commandsDir);

  it('are found', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it.each(files.map((file) => [file.slice(commandsDir.length), file]))('%s neither builds its own style nor writes a raw escape', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/\bloadStyle\b|\bcolorEnabled\b/);
    expect(hasRawEscape(text)).toBe(false);
  });
});
