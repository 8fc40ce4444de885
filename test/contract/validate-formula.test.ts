// Across modules: validate-formula's body and result schemas over the formula engine.
import { describe, expect, it } from 'vitest';
import { validateFormulaBodySchema, validateFormulaResultSchema } from '../../src/contract/index.js';
import { issueAt, parsed, pathsOf } from './fixtures.js';

// docs/decisions.md: "Responses": POST /api/v2/templates/validate-formula answers 200
// `{ valid, usesL }` (plus `errors: [{ message, offset, length }]` when invalid). A missing,
// non-string or over-long `formula` is a 400, not `valid: false`.

const schema = validateFormulaBodySchema;

describe('validateFormulaBodySchema', () => {
  it('accepts a formula', () => {
    expect(parsed(schema, { formula: '(NIR - R) / (NIR + R + eps)' })).toEqual({ formula: '(NIR - R) / (NIR + R + eps)' });
  });

  it('accepts an empty or invalid formula (that is `valid: false`, not a 400)', () => {
    expect(pathsOf(schema, { formula: '' })).toEqual([]);
    expect(pathsOf(schema, { formula: '   ' })).toEqual([]);
    expect(pathsOf(schema, { formula: 'NIR ^ 2' })).toEqual([]);
  });

  it('rejects a missing formula at `formula`, saying it is required', () => {
    expect(pathsOf(schema, {})).toEqual(['formula']);
    expect(issueAt(schema, {}, 'formula').message).toMatch(/required/);
  });

  it.each([42, null, true, ['NIR']])('rejects the non-string formula %j at `formula`', (formula) => {
    expect(pathsOf(schema, { formula })).toEqual(['formula']);
    expect(issueAt(schema, { formula }, 'formula').message).not.toMatch(/required/);
  });

  it('rejects 2001 characters at `formula` and accepts 2000', () => {
    expect(pathsOf(schema, { formula: 'N'.repeat(2001) })).toEqual(['formula']);
    expect(pathsOf(schema, { formula: 'N'.repeat(2000) })).toEqual([]);
  });

  it('rejects an unknown field at its name', () => {
    expect(pathsOf(schema, { formula: 'NIR', rules: {} })).toEqual(['rules']);
  });

  it('rejects a body that is not an object at the empty path', () => {
    expect(pathsOf(schema, 'NIR')).toEqual(['']);
  });
});

describe('validateFormulaResultSchema', () => {
  it('reads `{ valid, usesL }` and `errors: [{ message, offset, length }]`', () => {
    expect(pathsOf(validateFormulaResultSchema, { valid: true, usesL: true })).toEqual([]);
    expect(
      pathsOf(validateFormulaResultSchema, {
        valid: false,
        usesL: false,
        errors: [{ message: 'division without eps', offset: 10, length: 13 }],
      }),
    ).toEqual([]);
  });

  it('rejects a negative offset (offsets are 0-based)', () => {
    expect(
      pathsOf(validateFormulaResultSchema, { valid: false, usesL: false, errors: [{ message: 'x', offset: -1, length: 1 }] }),
    ).toEqual(['errors.0.offset']);
  });

  it('keeps unknown fields (lenient)', () => {
    const result = { valid: false, usesL: false, errors: [{ message: 'x', offset: 0, length: 1, hint: 'NIR' }], ast: null };
    expect(parsed(validateFormulaResultSchema, result)).toEqual(result);
  });
});
