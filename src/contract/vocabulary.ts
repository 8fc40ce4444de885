// The service's fixed vocabularies, free of zod so the CLI can offer them as flag choices and
// completions without loading the schemas.
export const analysisTypes = ['counting', 'replanting', 'path'] as const;
export const reportCategories = ['general', 'vegetation_index'] as const;
export const paperSizes = ['letter', 'legal', 'a4', 'a3'] as const;
export const layoutElementTypes = ['map', 'legend', 'title', 'statistics', 'text', 'logo', 'scale', 'northArrow'] as const;
export const queueRunStatuses = ['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled'] as const;
export const stepStatuses = ['pending', 'running', 'completed', 'failed', 'skipped'] as const;
export const analysisStatuses = ['completed', 'failed'] as const;
/** A list's page size when none is asked for, and the largest the service gives. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const finishedQueueRunStatuses: readonly string[] = ['completed', 'failed', 'cancelled'];

// One line per value, for help and shell completion (zsh and fish show them beside the value).
type Notes<T extends readonly string[]> = Readonly<Record<T[number], string>>;
export const analysisTypeNotes: Notes<typeof analysisTypes> = {
  counting: 'plant counts per lot',
  replanting: 'gaps to replant',
  path: 'rows and paths through the lot',
};
export const reportCategoryNotes: Notes<typeof reportCategories> = {
  general: 'statistics of the analysis',
  vegetation_index: 'a vegetation index map (NDVI, SAVI, a custom formula)',
};
export const queueRunStatusNotes: Notes<typeof queueRunStatuses> = {
  pending: 'waiting to be claimed',
  claimed: 'taken by a worker, not started',
  running: 'steps in progress',
  completed: 'every step completed',
  failed: 'a step failed',
  cancelled: 'stopped before it finished',
};
export const analysisStatusNotes: Notes<typeof analysisStatuses> = {
  completed: 'the analysis has its results',
  failed: 'the analysis failed',
};

/** Server-owned template fields: accepted in a body (so a GET result can be PUT back) and ignored. */
export const serverOwnedTemplateFields = ['id', 'userId', 'createdAt', 'updatedAt'] as const;

/** A copy of a template document without the server-owned fields (zod-free, so the dashboard can use it). */
export function withoutServerOwned<T extends object>(document: T): Omit<T, (typeof serverOwnedTemplateFields)[number]> {
  const fields = { ...document } as Record<string, unknown>;
  for (const field of serverOwnedTemplateFields) delete fields[field];
  return fields as Omit<T, (typeof serverOwnedTemplateFields)[number]>;
}

/**
 * Where the dashboard trades the one-time code of the URL `serve --demo` prints for the key:
 * POST `{ "code" }`, answered `{ "apiKey" }`. A code works once, within this many minutes.
 */
export const DASHBOARD_SIGN_IN_PATH = '/dashboard/sign-in';
export const DASHBOARD_CODE_MINUTES = 5;
