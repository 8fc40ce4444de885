import { didYouMean, type NearnessPolicy } from '../formula/did-you-mean.js';

/** Values the CLI checks (statistics, report types, profiles) are longer words than formula names. */
const optionValueNearness: NearnessPolicy = {
  containing: true,
  maxDistance: (written) => Math.max(2, Math.floor(written.length / 3)),
};

/**
 * The valid value a rejected one most likely meant, for "did you mean" hints: same text in
 * another case, then one containing the other (`plant_count` → `plant_count_summary`), then
 * the nearest by edit distance within a third of the length.
 */
export function closestMatch(value: string, candidates: readonly string[]): string | undefined {
  return didYouMean(value, candidates, optionValueNearness);
}
