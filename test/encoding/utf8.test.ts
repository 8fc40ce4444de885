import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, NotUtf8Error } from '../../src/encoding/utf8.js';
import { NOT_UTF8_SAMPLES, withSample } from '../helpers/not-utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

function faultOf(input: Uint8Array): NotUtf8Error {
  try {
    decodeUtf8(input);
  } catch (error) {
    if (error instanceof NotUtf8Error) return error;
    throw error;
  }
  throw new Error('decoded without a fault');
}

describe('decodeUtf8', () => {
  it('decodes UTF-8 of every length as it is', () => {
    const text = 'Lote Peñón — 7 ha ☃ 𝔑IR';
    expect(decodeUtf8(Buffer.from(text))).toBe(text);
    expect(decodeUtf8(bytes())).toBe('');
  });

  it('drops one byte order mark at the start, and keeps one anywhere else', () => {
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toBe('{}');
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf))).toBe('\ufeff');
    expect(decodeUtf8(bytes(0x61, 0xef, 0xbb, 0xbf))).toBe('a\ufeff');
  });

  it.each(NOT_UTF8_SAMPLES)('refuses $name at the byte where it starts, on its line', (sample) => {
    const document = withSample('{\n  "name": "@@"\n}\n', sample);
    const fault = faultOf(document.bytes);
    expect({ offset: fault.offset, line: fault.line, byte: fault.byte }).toEqual({ offset: document.offset, line: 2, byte: document.bytes[document.offset] });
    expect(fault.message).toMatch(new RegExp(`^not UTF-8: at byte offset ${document.offset} \\(line 2\\), 0x[0-9A-F]{2} `));
  });

  it.each([
    ['Latin-1 ñ before a letter', [0x50, 0x65, 0xf1, 0x6e], 2, '0xF1 begins an incomplete character'],
    ['a lead byte cut off by the end', [0x61, 0xe2, 0x82], 1, '0xE2 begins an incomplete character'],
    ['a lone continuation byte', [0x80], 0, '0x80 is a continuation byte with no character to continue'],
    ['an overlong slash in two bytes', [0xc0, 0xaf], 0, '0xC0 begins an overlong encoding'],
    ['an overlong slash in three bytes', [0x20, 0xe0, 0x80, 0xaf], 1, '0xE0 begins an overlong encoding'],
    ['an overlong slash in four bytes', [0xf0, 0x80, 0x80, 0xaf], 0, '0xF0 begins an overlong encoding'],
    ['a high surrogate', [0xed, 0xa0, 0x80], 0, '0xED begins an encoded UTF-16 surrogate'],
    ['a low surrogate', [0xed, 0xbf, 0xbf], 0, '0xED begins an encoded UTF-16 surrogate'],
    ['U+110000', [0xf4, 0x90, 0x80, 0x80], 0, '0xF4 begins a code point past U+10FFFF'],
    ['a five-byte lead of old', [0xf8, 0x88, 0x80, 0x80, 0x80], 0, '0xF8 never occurs in UTF-8'],
    ['UTF-16LE with its byte order mark', [0xff, 0xfe, 0x7b, 0x00], 0, '0xFF never occurs in UTF-8 (FF FE is a UTF-16 byte order mark)'],
    ['UTF-16BE with its byte order mark', [0xfe, 0xff, 0x00, 0x7b], 0, '0xFE never occurs in UTF-8 (FE FF is a UTF-16 byte order mark)'],
  ])('%s', (_what, input, offset, words) => {
    expect(faultOf(bytes(...input)).message).toBe(`not UTF-8: at byte offset ${offset} (line 1), ${words}`);
  });

  it('accepts the edges of each range (U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF)', () => {
    const text = '\u0080\u07ff\u0800\ud7ff\ue000\uffff\u{10000}\u{10ffff}';
    expect(decodeUtf8(Buffer.from(text))).toBe(text);
  });

  it('agrees with Node on any bytes: text when they are UTF-8, else the fault where the longest UTF-8 prefix ends', () => {
    // Bytes near the edges of UTF-8's ranges, mixed with ASCII and newlines, find the faults.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc2, 0xe0, 0xed, 0xef, 0xf0, 0xf4));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (values) => {
        const input = Buffer.from(values);
        if (isUtf8(input)) {
          expect(decodeUtf8(input)).toBe(input.toString('utf8').replace(/^\ufeff/, ''));
          return;
        }
        let valid = 0;
        for (let end = 1; end <= input.length; end++) if (isUtf8(input.subarray(0, end))) valid = end;
        const fault = faultOf(input);
        expect(fault.offset).toBe(valid);
        expect(fault.line).toBe(input.subarray(0, valid).filter((value) => value === 0x0a).length + 1);
      }),
      { numRuns: 5000 },
    );
  });
});
