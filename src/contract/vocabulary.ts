// The service's fixed vocabularies, free of zod so the CLI can offer them as flag choices and
// completions without loading the schemas.
export const analysisTypes = ['counting', 'replanting', 'path'] as const;
export const reportCategories = ['general', 'vegetation_index'] as const;
export const paperSizes = ['letter', 'legal', 'a4', 'a3'] as const;
export const layoutElementTypes = ['map', 'legend', 'title', 'statistics', 'text', 'logo', 'scale', 'northArrow'] as const;
export const queueRunStatuses = ['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled'] as const;
export const stepStatuses = ['pending', 'running', 'completed', 'failed', 'skipped'] as const;
export const analysisStatuses = ['completed', 'failed'] as const;
export const finishedQueueRunStatuses: readonly string[] = ['completed', 'failed', 'cancelled'];
/** Server-owned template fields: accepted in a body (so a GET result can be PUT back) and ignored. */
export const serverOwnedTemplateFields = ['id', 'userId', 'createdAt', 'updatedAt'] as const;
