import { describe, expect, it } from 'vitest';
import { nodeAtPath, parseJsonText, spanInString, spanOfPath, textOffsetInString } from '../../src/lsp/json-text.js';

const rootOf = (text: string) => parseJsonText(text).root!;

describe('json-text: where an issue path and a span of a string value are in the text', () => {
  it('maps a string value index to the text through escapes: \\", \\/, \\u0041 and a surrogate pair written as two escapes', () => {
    const text = '{"formula": "a\\"b\\/c\\u0041d\\ud83d\\ude00e"}';
    const { node } = nodeAtPath(rootOf(text), 'formula');
    const value = JSON.parse(text).formula as string;
    // Every character of the value lands on the text that writes it.
    for (const [index, expected] of [[0, 'a'], [1, '\\"'], [2, 'b'], [3, '\\/'], [4, 'c'], [5, '\\u0041'], [6, 'd'], [7, '\\ud83d'], [8, '\\ude00'], [9, 'e']] as const) {
      const at = textOffsetInString(text, node, index);
      expect(text.slice(at, at + expected.length), `index ${index} (${value[index]})`).toBe(expected);
    }
    expect(spanInString(text, node, { offset: 5, length: 2 })).toEqual({ offset: text.indexOf('\\u0041'), length: '\\u0041d'.length });
  });

  it('a raw surrogate pair is two characters of the value and two of the text', () => {
    const text = '{"formula": "😀 NIR"}';
    const { node } = nodeAtPath(rootOf(text), 'formula');
    expect(text.slice(textOffsetInString(text, node, 3), textOffsetInString(text, node, 6))).toBe('NIR');
  });

  it('an issue path: a value, a key for an unknown field, a missing field at its object, a key with dots matched whole', () => {
    const text = '{\n  "margins": { "top": "two" },\n  "a.b": 1,\n  "layouts": { "portrait": { "elements": [ { "x": 2 } ] } }\n}';
    const root = rootOf(text);
    const slice = (span: { offset: number; length: number }) => text.slice(span.offset, span.offset + span.length);
    expect(slice(spanOfPath(root, 'margins.top'))).toBe('"two"');
    expect(slice(spanOfPath(root, 'a.b', true))).toBe('"a.b"');
    expect(slice(spanOfPath(root, 'layouts.portrait.elements.0.x'))).toBe('2');
    expect(spanOfPath(root, 'margins.left')).toEqual({ offset: text.indexOf('{ "top"'), length: 1 });
    expect(spanOfPath(root, 'name')).toEqual({ offset: 0, length: 1 });
    expect(spanOfPath(root, 'layouts.portrait.elements.3.x')).toEqual({ offset: text.indexOf('[ {'), length: 1 });
  });

  it('the first syntax error, in the words validate uses', () => {
    expect(parseJsonText('{"name": }').syntax).toEqual({ offset: 9, length: 1, reason: 'value expected' });
    expect(parseJsonText('').syntax?.reason).toBe('value expected');
    expect(parseJsonText('{"a": 1,}').syntax?.reason).toBe('property name expected');
  });
});
