/** How far a "did you mean" suggestion may stray from what was written. */
export interface NearnessPolicy {
  /**
   * Whether a candidate that contains the written text, or is contained in it (3 characters
   * at least), is the answer before edit distance is tried; the nearest in length wins.
   */
  containing: boolean;
  /** The largest edit distance accepted between the written text and a candidate. */
  maxDistance(written: string, candidate: string): number;
}

/**
 * The candidate a mistyped name most likely meant: the same text in another case first,
 * then (if the policy says so) one containing the other, then the nearest by edit distance
 * within the policy's bound; the first candidate wins a tie.
 */
export function didYouMean(written: string, candidates: readonly string[], policy: NearnessPolicy): string | undefined {
  const lower = written.toLowerCase();
  for (const candidate of candidates) if (candidate.toLowerCase() === lower) return candidate;
  if (policy.containing && lower.length >= 3) {
    let nearest: string | undefined;
    for (const candidate of candidates) {
      const other = candidate.toLowerCase();
      if (!other.includes(lower) && !lower.includes(other)) continue;
      const gap = Math.abs(candidate.length - written.length);
      if (nearest === undefined || gap < Math.abs(nearest.length - written.length)) nearest = candidate;
    }
    if (nearest !== undefined) return nearest;
  }
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const bound = Math.min(bestDistance - 1, policy.maxDistance(written, candidate));
    const other = candidate.toLowerCase();
    // The distance is at least the difference in length: skip what cannot come within bound.
    if (Math.abs(other.length - lower.length) > bound) continue;
    const distance = editDistance(lower, other);
    if (distance <= bound) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const rows = new Array<number>((a.length + 1) * width);
  const at = (i: number, j: number): number => rows[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) rows[i * width] = i;
  for (let j = 0; j <= b.length; j++) rows[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      rows[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * Formula names are short (`R`, `NIR`): at most 2 edits, and at most half of the longer
 * name (so `T` does not suggest `R`).
 */
export const formulaNameNearness: NearnessPolicy = {
  containing: false,
  maxDistance: (written, candidate) => Math.min(2, Math.floor(Math.max(written.length, candidate.length) / 2)),
};

/** The allowed formula name a mistyped one most likely meant. */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  return didYouMean(name, candidates, formulaNameNearness);
}
