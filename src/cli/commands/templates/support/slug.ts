/** Long enough to tell names apart, short enough for a terminal column and any file system. */
const MAX_SLUG = 60;

/** `Lot 7 — stand count (NDVI)` → `lot-7-stand-count-ndvi`: ASCII letters and digits, lower case, dashes. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  if (slug === '') return 'template';
  // Windows refuses these as file names, whatever the extension: a checkout there would break.
  return WINDOWS_DEVICE.test(slug) ? `${slug}-template` : slug;
}

/** Windows' reserved device names (a slug has no dot, so the name is the whole slug). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])$/;

/**
 * A file name for `name` that is not in `taken` (compared without case, as macOS and Windows
 * do): the slug, or the slug with `-2`, `-3`… where it would clash. The name is added to `taken`.
 */
export function fileNameFor(name: string, taken: Set<string>): string {
  const slug = slugOf(name);
  for (let n = 1; ; n++) {
    const candidate = `${slug}${n === 1 ? '' : `-${n}`}.json`;
    if (!taken.has(candidate.toLowerCase())) {
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  }
}
