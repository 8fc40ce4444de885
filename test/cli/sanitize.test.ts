import { describe, expect, it } from 'vitest';
import { jsonForTerminal, escapeControls } from '../../src/cli/sanitize.js';

describe('escapeControls', () => {
  it('shows every C0, DEL and C1 character as \\xHH; tab and newline become spaces', () => {
    expect(escapeControls('a\u001b]0;t\u0007b')).toBe('a\\x1b]0;t\\x07b');
    expect(escapeControls('\u0000\r\u007f\u0080\u009b\u009f')).toBe('\\x00\\x0d\\x7f\\x80\\x9b\\x9f');
    expect(escapeControls('one\ttwo\nthree')).toBe('one two three');
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
});
