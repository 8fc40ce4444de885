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

/**
 * For a flag's few fixed values: `closestMatch`, else the one value the text abbreviates,
 * its letters in order from the first (`m` or `md` for markdown), as people shorten them.
 */
export function closestChoice(value: string, choices: readonly string[]): string | undefined {
  const close = closestMatch(value, choices);
  if (close !== undefined || value === '') return close;
  const written = value.toLowerCase();
  const abbreviates = (choice: string) => {
    const letters = choice.toLowerCase();
    if (letters[0] !== written[0]) return false;
    let matched = 0;
    for (const letter of letters) if (letter === written[matched]) matched++;
    return matched === written.length;
  };
  const found = choices.filter(abbreviates);
  return found.length === 1 ? found[0] : undefined;
}
