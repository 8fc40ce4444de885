import type { Listing, ServiceApi } from '../../client/api.js';
import { ApiResponseError, UnexpectedResponseError } from '../../client/errors.js';
import type { Template } from '../../contract/index.js';
import { CliError, ExitCode, UsageError } from '../cmdutil/errors.js';
import type { CommandUnknownOpts } from '../cmdutil/typed-commander.js';
import { SERVICE_ID } from '../iostreams/sanitize.js';

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
function single<T extends Named>(noun: string, reference: string, matches: T[], listCommand: string, items: readonly T[] = []): T {
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw notFound(noun, reference, listCommand, items);
  throw new CliError(`${reference} could be ${matches.length} ${noun}s; give more of the id`, ExitCode.usage, undefined, {
    code: 'AMBIGUOUS_REFERENCE',
    issues: matches.map((item) => ({ path: item.id, message: `${item.name} (created ${item.createdAt})` })),
  });
}

/** Names are matched whole; those that start with the reference are what was likely meant. */
const NAMES_SHOWN = 5;

/** A reference that matches nothing (exit 4), with the names it starts, if any. */
function notFound(noun: string, reference: string, listCommand: string, items: readonly Named[], answer?: ApiResponseError): CliError {
  const short = reference.length < MIN_ID_PREFIX && ID_PREFIX.test(reference) ? `; an id prefix needs at least ${MIN_ID_PREFIX} characters` : '';
  const lower = reference.toLowerCase();
  const started = items.filter((item) => item.name.toLowerCase().startsWith(lower)).map((item) => item.name).sort();
  const names = started.length === 0 ? [] : [`a name is matched whole; ${started.length === 1 ? 'this one starts' : `${started.length} start`} with it: ${started.slice(0, NAMES_SHOWN).join(', ')}${started.length > NAMES_SHOWN ? ', …' : ''}`];
  return new CliError(`${noun} ${reference} not found: no id, id prefix or name matches`, ExitCode.notFound, `see \`${listCommand}\`${short}`, {
    code: 'NOT_FOUND',
    hints: names,
    // Scripts keep the service's status and words when it was asked.
    ...(answer ? { status: answer.status, message: answer.message } : {}),
  });
}

/** The service's 404 for one item, as the not-found of a reference; a 404 of a wrong base URL stands. */
function notFoundAsReference(noun: string, reference: string, listCommand: string, items: readonly Named[]) {
  return (error: unknown): never => {
    if (error instanceof ApiResponseError && error.status === 404 && !error.missingRoute) throw notFound(noun, reference, listCommand, items, error);
    throw error;
  };
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
  const list = 'reportctl templates list';
  if (WHOLE_ID.test(reference)) return api.templates.get(reference).catch(notFoundAsReference('template', reference, list, []));
  const templates = await everyItem(api.templates, signal);
  const matches = matchReference(reference, templates);
  if (matches.length === 0 && !ID_PREFIX.test(reference)) {
    return api.templates.get(reference).catch(notFoundAsReference('template', reference, list, templates));
  }
  return api.templates.get(single('template', reference, matches, list, templates).id);
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
  return single('queue run', reference, matchReference(reference, runs), 'reportctl queue-runs list', runs).id;
}

/** Arguments that are text of their own, where empty means something (an empty formula gets its verdict). */
const TEXT_ARGUMENTS: ReadonlySet<string> = new Set(['formula', 'value']);

/**
 * An empty id, name, folder or key (`watch "$RUN"` with RUN unset) is a usage error, for every
 * command: it would otherwise match nothing, or everything a prefix matches.
 */
export function refuseEmptyArguments(command: CommandUnknownOpts): void {
  command.registeredArguments.forEach((argument, at) => {
    if (TEXT_ARGUMENTS.has(argument.name())) return;
    const given: unknown = command.processedArgs[at];
    if (given === '' || (Array.isArray(given) && given.includes(''))) {
      throw new UsageError(`the ${argument.name()} argument is empty`, 'an unset shell variable in quotes ("$RUN") gives an empty argument');
    }
  });
}
