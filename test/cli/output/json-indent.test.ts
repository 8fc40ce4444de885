import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentJson } from '../../../src/cli/output/json-indent.js';

describe('indentJson: compact JSON laid out as jq lays it out on a terminal', () => {
  it('is JSON.stringify\'s two-space layout for any value without numbers JSON.stringify would rewrite', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
      leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.constantFrom('"', '\\', '{"a":[1]}', '[', '}', ',', ':', '\u2028')),
    })).node;
    fc.assert(
      fc.property(value, (json) => {
        expect(indentJson(JSON.stringify(json))).toBe(JSON.stringify(json, null, 2));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps jq\'s digits, and empty arrays and objects on one line', () => {
    expect(indentJson('{"big":100000000000000000001,"x":1.0e+300,"e":[],"o":{}}')).toBe('{\n  "big": 100000000000000000001,\n  "x": 1.0e+300,\n  "e": [],\n  "o": {}\n}');
    expect(indentJson('"a string, [not] {structure}"')).toBe('"a string, [not] {structure}"');
    expect(indentJson('17')).toBe('17');
  });

  it('lays out the deepest value jq reads (256 levels) and deeper', () => {
    for (const depth of [256, 3000]) {
      const nested = JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown;
      expect(indentJson(JSON.stringify(nested)) === JSON.stringify(nested, null, 2)).toBe(true);
    }
  });
});
