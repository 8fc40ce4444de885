/**
 * End of life of each Node.js major line (https://github.com/nodejs/Release): the one place
 * to add a line when Node.js publishes one. Even majors are the LTS lines. A major newer than
 * this table has no known end yet.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
};

/** The end-of-life date (YYYY-MM-DD) of `major` when it is on or before `now`, else null. */
export function pastEndOfLife(major: number, now: number): string | null {
  const endOfLife = NODE_END_OF_LIFE[major];
  return endOfLife !== undefined && Date.parse(`${endOfLife}T00:00:00Z`) <= now ? endOfLife : null;
}

/** The LTS lines still maintained at `now`, oldest first: what to move to. */
export function maintainedLtsMajors(now: number): number[] {
  return Object.keys(NODE_END_OF_LIFE)
    .map(Number)
    .filter((major) => major % 2 === 0 && pastEndOfLife(major, now) === null);
}
