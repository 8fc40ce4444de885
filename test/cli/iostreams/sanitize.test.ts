// iostreams/sanitize.ts: the escaping every verb applies to the service's text before a terminal shows it
// (escapeControls, jsonForTerminal): control and invisible characters are shown, not sent.
import { describe, expect, it } from 'vitest';
import { quoted } from '../../../src/cli/commands/templates/support/folder.js';
import { jsonForTerminal, escapeControls } from '../../../src/cli/iostreams/sanitize.js';

// What a terminal shows as nothing, or uses to reorder the line: bidi embeddings, overrides and
// isolates, zero-width spaces, joiners and marks, word joiner, BOM, soft hyphen, a tag character,
// the line and paragraph separators.
const INVISIBLE = [
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069',
  ...'\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad\u061c\u2028\u2029',
  '\u{e0041}',
];

describe('escapeControls', () => {
  it('shows every C0, DEL and C1 character as \\xHH; tab and newline become spaces', () => {
    expect(escapeControls('a\u001b]0;t\u0007b')).toBe('a\\x1b]0;t\\x07b');
    expect(escapeControls('\u0000\r\u007f\u0080\u009b\u009f')).toBe('\\x00\\x0d\\x7f\\x80\\x9b\\x9f');
    expect(escapeControls('one\ttwo\nthree')).toBe('one two three');
  });

  it('shows each invisible format character as \\uHHHH, so look-alike names differ', () => {
    expect(INVISIBLE.map(escapeControls)).toEqual([
      ...['202a', '202b', '202c', '202d', '202e', '2066', '2067', '2068', '2069'].map((hex) => `\\u${hex}`),
      ...['200b', '200c', '200d', '200e', '200f', '2060', 'feff', '00ad', '061c', '2028', '2029'].map((hex) => `\\u${hex}`),
      '\\u{e0041}',
    ]);
    // The plan line `templates apply` prints for a deletion.
    const line = (name: string) => `delete   ${quoted(name)} tpl-1 (in no file)`;
    expect(line('keep-me\u200b')).toBe('delete   "keep-me\\u200b" tpl-1 (in no file)');
    expect(line('keep-me\u200b')).not.toBe(line('keep-me'));
    // A right-to-left override cannot make `gpj.exe` read as `exe.jpg`.
    expect(escapeControls('photo\u202egpj.exe')).toBe('photo\\u202egpj.exe');
  });

  it('leaves printable text alone, accents and emoji included', () => {
    const text = 'Conteo de plantas — ñandú 🌱 \u00a0\u00ff';
    expect(escapeControls(text)).toBe(text);
  });
});

describe('jsonForTerminal', () => {
  it('escapes what JSON.stringify leaves raw, keeping the same JSON value', () => {
    const value = { name: '\u001b[2J\u009b31m\u007f' };
    const text = jsonForTerminal(JSON.stringify(value));
    expect(text).toBe('{"name":"\\u001b[2J\\u009b31m\\u007f"}');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('escapes the invisible format characters too, past the BMP as a surrogate pair', () => {
    const value = { name: `keep-me${INVISIBLE.join('')}` };
    const text = jsonForTerminal(JSON.stringify(value));
    expect(text).toBe(
      '{"name":"keep-me\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200b\\u200c\\u200d\\u200e\\u200f\\u2060\\ufeff\\u00ad\\u061c\\u2028\\u2029\\udb40\\udc41"}',
    );
    expect(JSON.parse(text)).toEqual(value);
  });
});
