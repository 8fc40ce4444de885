import type { Listing, ServiceApi } from '../client/api.js';
import { UnexpectedResponseError } from '../client/errors.js';
import type { Template } from '../contract/index.js';
import { CliError, ExitCode } from './errors.js';
import { SERVICE_ID } from './sanitize.js';

/** A whole id: nothing to resolve. */
const WHOLE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What could start one of the service's ids. */
const ID_PREFIX = /^[0-9a-f-]+$/i;
/** Shorter prefixes match too much to be worth a listing (git and docker agree). */
export const MIN_ID_PREFIX = 6;

interface Named {
  id: string;
  name: string;
  createdAt: string;
}

/** What a reference names: the item with that id, else those whose id starts with it or whose name is it. */
export function matchReference<T extends Named>(reference: string, items: Iterable<T>): T[] {
  const prefix = reference.length >= MIN_ID_PREFIX ? reference.toLowerCase() : undefined;
  const matches: T[] = [];
  for (const item of items) {
    if (item.id === reference) return [item];
    if ((prefix !== undefined && item.id.toLowerCase().startsWith(prefix)) || item.name === reference) matches.push(item);
  }
  return matches;
}

/** One match, or the error that says why not: none (exit 4) or several, listed (exit 2). */
function single<T extends Named>(noun: string, reference: string, matches: T[], listCommand: string): T {
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    const short = reference.length < MIN_ID_PREFIX ? `; an id prefix needs at least ${MIN_ID_PREFIX} characters` : '';
    throw new CliError(`${noun} ${reference} not found: no id, id prefix or name matches`, ExitCode.notFound, `see \`${listCommand}\`${short}`, {
      code: 'NOT_FOUND',
    });
  }
  throw new CliError(`${reference} could be ${matches.length} ${noun}s; give more of the id`, ExitCode.usage, undefined, {
    code: 'AMBIGUOUS_REFERENCE',
    issues: matches.map((item) => ({ path: item.id, message: `${item.name} (created ${item.createdAt})` })),
  });
}

async function everyItem<T>(listing: Listing<T>, signal?: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  for await (const item of listing.listAll({}, signal)) items.push(item);
  return items;
}

/**
 * A template by whole id (one request), or by a unique id prefix or exact name (a listing,
 * paced, then the template itself, so what is printed is the service's own document). A
 * reference that matches nothing and could not be a prefix of one of our ids goes to the
 * service as it is: another service may use other ids.
 */
export async function resolveTemplate(api: ServiceApi, reference: string, signal?: AbortSignal): Promise<Template> {
  return withServiceId(api, await findTemplate(api, reference, signal));
}

async function findTemplate(api: ServiceApi, reference: string, signal?: AbortSignal): Promise<Template> {
  if (WHOLE_ID.test(reference)) return api.templates.get(reference);
  const templates = await everyItem(api.templates, signal);
  const matches = matchReference(reference, templates);
  if (matches.length === 0 && !ID_PREFIX.test(reference)) return api.templates.get(reference);
  return api.templates.get(single('template', reference, matches, 'reportctl templates list').id);
}

/** What the service sent, refused when its id is not one of the service's (see SERVICE_ID). */
export function withServiceId<T extends { id: string }>(api: ServiceApi, item: T): T {
  if (SERVICE_ID.test(item.id)) return item;
  throw new UnexpectedResponseError(api.client.baseUrl, "an id that is not the service's (1 to 128 letters, digits, _ and -)");
}

/** The id a template reference stands for; a whole id is taken as it is, without a request. */
export async function resolveTemplateId(api: ServiceApi, reference: string, signal?: AbortSignal): Promise<string> {
  return WHOLE_ID.test(reference) ? reference : (await resolveTemplate(api, reference, signal)).id;
}

/** The run a reference names: a whole id, a unique id prefix or its exact name. */
export async function resolveQueueRunId(api: ServiceApi, reference: string, signal?: AbortSignal): Promise<string> {
  if (WHOLE_ID.test(reference)) return reference;
  const runs = await everyItem(api.queueRuns, signal);
  return single('queue run', reference, matchReference(reference, runs), 'reportctl queue-runs list').id;
}
