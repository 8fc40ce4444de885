import { editDistance } from '../formula/check.js';

/**
 * The valid value a rejected one most likely meant, for "did you mean" hints: same text in
 * another case, then one containing the other (`plant_count` → `plant_count_summary`), then
 * the nearest by edit distance within a third of the length.
 */
export function closestMatch(value: string, candidates: readonly string[]): string | undefined {
  const lower = value.toLowerCase();
  const exact = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (exact) return exact;
  const containing = candidates.filter((candidate) => {
    const other = candidate.toLowerCase();
    return lower.length >= 3 && (other.includes(lower) || lower.includes(other));
  });
  if (containing.length > 0) return containing.sort((a, b) => Math.abs(a.length - value.length) - Math.abs(b.length - value.length))[0];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(value.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
