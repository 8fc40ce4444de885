// Across modules: properties of the whole engine over generated formulas (parse, print, evaluate).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFormula, parse, print, type Diagnostic, type Node } from '../../src/formula/index.js';

/** The tree without positions, for comparing trees parsed from different text. */
function withoutSpans(node: Node): unknown {
  switch (node.kind) {
    case 'number':
      return { kind: node.kind, value: node.value, raw: node.raw };
    case 'identifier':
      return { kind: node.kind, name: node.name };
    case 'unary':
      return { kind: node.kind, op: node.op, operand: withoutSpans(node.operand) };
    case 'binary':
      return { kind: node.kind, op: node.op, left: withoutSpans(node.left), right: withoutSpans(node.right) };
    case 'call':
      return { kind: node.kind, callee: node.callee, args: node.args.map(withoutSpans) };
  }
}

/** Every span lies inside its parent's and names the text it came from. */
function expectFaithfulSpans(node: Node, source: string, outer = { start: 0, end: source.length }): void {
  expect(node.start).toBeGreaterThanOrEqual(outer.start);
  expect(node.end).toBeLessThanOrEqual(outer.end);
  expect(node.start).toBeLessThan(node.end);
  const text = source.slice(node.start, node.end);
  switch (node.kind) {
    case 'number':
      expect(text).toBe(node.raw);
      break;
    case 'identifier':
      expect(text).toBe(node.name);
      break;
    case 'unary':
      expect(text.startsWith(node.op)).toBe(true);
      expectFaithfulSpans(node.operand, source, node);
      break;
    case 'binary':
      expectFaithfulSpans(node.left, source, node);
      expectFaithfulSpans(node.right, source, node);
      expect(node.left.end).toBeLessThan(node.right.start);
      break;
    case 'call':
      expect(source.slice(node.calleeStart, node.calleeEnd)).toBe(node.callee);
      expect(text.endsWith(')')).toBe(true);
      for (const arg of node.args) expectFaithfulSpans(arg, source, node);
      break;
  }
}

function expectInBounds(diagnostics: Diagnostic[], source: string): void {
  for (const d of diagnostics) {
    expect(Number.isInteger(d.offset) && Number.isInteger(d.length)).toBe(true);
    expect(d.offset).toBeGreaterThanOrEqual(0);
    expect(d.length).toBeGreaterThanOrEqual(0);
    expect(d.offset + d.length).toBeLessThanOrEqual(source.length);
    // Zero length only where there is nothing to point at.
    if (d.length === 0) expect(source).toBe('');
    expect(d.message.length).toBeGreaterThan(0);
  }
}

const pieces = [
  'NIR', 'R', 'G', 'B', 'RE', 'eps', 'L', 'nir', 'S1', 'x_1', 'sqrt', 'abs', 'log',
  '2', '2.5', '.5', '1.', '1e-3', '1E+3', '1e', '.', '0,5',
  '(', '(', ')', ')', '+', '-', '*', '/', '^', '**', ',',
  ' ', ' ', '\t', '\r\n', '\u00a0', '\u2212', '\u2013', '\u00d7', '\u00f7', '\u00b2', 'ρ', '\ud83d\ude00', '\ud83d', '[', '%',
];
const grammarBiased = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'binary', minLength: 1990, maxLength: 2010 }),
);

const numberRaw = fc.oneof(
  fc.nat().map(String),
  fc.tuple(fc.nat(9999), fc.nat(9999)).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.nat(999).map((fraction) => `.${fraction}`),
  fc.nat(999).map((whole) => `${whole}.`),
  fc
    .tuple(fc.nat(99), fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(30))
    .map(([mantissa, e, sign, exponent]) => `${mantissa}${e}${sign}${exponent}`),
);

// Trees built directly, not from text: printing them is the only way they become text.
const { node: anyTree } = fc.letrec<{ node: Node; unary: Node; binary: Node; call: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberRaw.map((raw): Node => ({ kind: 'number', value: Number(raw), raw, start: 0, end: 0 })),
    fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/).map((name): Node => ({ kind: 'identifier', name, start: 0, end: 0 })),
    tie('unary'),
    tie('binary'),
    tie('call'),
  ),
  unary: fc
    .tuple(fc.constantFrom('+' as const, '-' as const), tie('node'))
    .map(([op, operand]): Node => ({ kind: 'unary', op, operand, start: 0, end: 0 })),
  binary: fc
    .tuple(fc.constantFrom('+' as const, '-' as const, '*' as const, '/' as const), tie('node'), tie('node'))
    .map(([op, left, right]): Node => ({ kind: 'binary', op, left, right, start: 0, end: 0 })),
  call: fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,4}$/), fc.array(tie('node'), { maxLength: 3 }))
    .map(([callee, args]): Node => ({ kind: 'call', callee, calleeStart: 0, calleeEnd: 0, args, start: 0, end: 0 })),
}));

/**
 * Writes a tree as a person might: random whitespace (space, tab, CRLF or none) and
 * redundant parentheses, plus the ones precedence needs. `seed` drives the choices.
 */
function writeLoosely(tree: Node, seed: number): string {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const space = (): string => ['', '', ' ', ' ', '\t', '\r\n'][Math.floor(next() * 6)] ?? '';
  const rank = (node: Node): number =>
    node.kind === 'binary' ? (node.op === '+' || node.op === '-' ? 1 : 2) : node.kind === 'unary' ? 3 : 4;
  const write = (node: Node, needsParentheses: boolean): string => {
    let text: string;
    switch (node.kind) {
      case 'number':
        text = node.raw;
        break;
      case 'identifier':
        text = node.name;
        break;
      case 'unary':
        text = node.op + space() + write(node.operand, rank(node.operand) < 3);
        break;
      case 'binary': {
        const own = rank(node);
        text = write(node.left, rank(node.left) < own) + space() + node.op + space() + write(node.right, rank(node.right) <= own);
        break;
      }
      case 'call':
        text = `${node.callee}(${space()}${node.args.map((arg) => write(arg, false)).join(`${space()},${space()}`)}${space()})`;
        break;
    }
    return needsParentheses || next() < 0.2 ? `(${space()}${text}${space()})` : text;
  };
  return space() + write(tree, false) + space();
}

describe('formula engine properties', () => {
  it('never throws on any string, and keeps every diagnostic inside the source', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, grammarBiased), (source) => {
        const check = checkFormula(source);
        expectInBounds(check.errors, source);
        expect(check.valid).toBe(check.errors.length === 0);
        if (check.valid) expect(check.ast).not.toBeNull();
        const parsed = parse(source);
        expectInBounds(parsed.diagnostics, source);
        expect(parsed.ast === null).toBe(parsed.diagnostics.length > 0);
      }),
      { numRuns: 3000 },
    );
  });

  it('parses the printed text of any tree back to that tree', () => {
    fc.assert(
      fc.property(anyTree, (tree) => {
        const text = print(tree);
        const reparsed = parse(text);
        expect(reparsed.diagnostics).toEqual([]);
        expect(withoutSpans(reparsed.ast!)).toEqual(withoutSpans(tree));
        expectFaithfulSpans(reparsed.ast!, text);
      }),
      { numRuns: 2000 },
    );
  });

  it('parses loosely written text to the tree it was written from', () => {
    fc.assert(
      fc.property(anyTree, fc.integer(), (tree, seed) => {
        const text = writeLoosely(tree, seed);
        const parsed = parse(text);
        expect(parsed.diagnostics).toEqual([]);
        expect(withoutSpans(parsed.ast!)).toEqual(withoutSpans(tree));
        expectFaithfulSpans(parsed.ast!, text);
      }),
      { numRuns: 2000 },
    );
  });

  it('prints a stable canonical form of whatever parses', () => {
    const looseText = fc.tuple(anyTree, fc.integer()).map(([tree, seed]) => writeLoosely(tree, seed));
    fc.assert(
      fc.property(fc.oneof(grammarBiased, looseText), (source) => {
        const first = parse(source);
        if (first.ast === null) return;
        expectFaithfulSpans(first.ast, source);
        const text = print(first.ast);
        const second = parse(text);
        expect(second.diagnostics).toEqual([]);
        expect(withoutSpans(second.ast!)).toEqual(withoutSpans(first.ast));
        expect(print(second.ast!)).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });
});
