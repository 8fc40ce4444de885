import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearestName } from '../../src/formula/index.js';
import { closestMatch } from '../../src/contract/closest-match.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps', () => {
    expect(editDistance('NIR', 'NIR')).toBe(0);
    expect(editDistance('NRI', 'NIR')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('nearestName (formula names)', () => {
  const names = ['R', 'G', 'B', 'RE', 'NIR', 'eps', 'L'];

  it('prefers the same name in another case, then the nearest within two edits', () => {
    expect(nearestName('nir', names)).toBe('NIR');
    expect(nearestName('Eps', names)).toBe('eps');
    expect(nearestName('NRI', names)).toBe('NIR');
    expect(nearestName('epss', names)).toBe('eps');
  });

  it('suggests nothing when the edit would change more than half of the name', () => {
    expect(nearestName('T', names)).toBeUndefined();
    expect(nearestName('XY', ['RE'])).toBeUndefined();
    expect(nearestName('NDVI', names)).toBeUndefined();
  });

  it('takes the first of equally near candidates', () => {
    expect(nearestName('RR', ['RE', 'R'])).toBe('RE');
    expect(nearestName('RR', ['R', 'RE'])).toBe('R');
  });
});

describe('closestMatch (CLI option values) shares the search', () => {
  it('prefers the same text in another case, then one containing the other, nearest in length', () => {
    expect(closestMatch('PROD', ['production', 'prod'])).toBe('prod');
    // stand_count is within edit distance 3; the containing value wins over it.
    expect(closestMatch('plant_count', ['stand_count', 'plant_count_summary'])).toBe('plant_count_summary');
    expect(closestMatch('plant_count', ['plant_count_summary', 'plant_count_total'])).toBe('plant_count_total');
    // Containment needs three characters: `pr` is not taken for `production`.
    expect(closestMatch('pr', ['production'])).toBeUndefined();
  });

  it('accepts an edit distance up to a third of the length, two at least', () => {
    expect(closestMatch('stagign', ['staging', 'prod'])).toBe('staging');
    expect(closestMatch('replnatingg', ['replanting'])).toBe('replanting');
    expect(closestMatch('xyz', ['staging'])).toBeUndefined();
  });

  it('is the same search as nearestName with another policy', () => {
    const policy = { containing: false, maxDistance: () => 0 };
    expect(didYouMean('NRI', ['NIR'], policy)).toBeUndefined();
    expect(didYouMean('nir', ['NIR'], policy)).toBe('NIR');
  });
});
