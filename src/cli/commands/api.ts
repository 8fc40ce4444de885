import type { CliDeps, GlobalOptions } from '../cmdutil/context.js';
import { UsageError } from '../cmdutil/errors.js';
import type { Wrap } from '../cmdutil/action.js';
import type { Root, RunF } from '../cmdutil/verb.js';
import { printJson } from '../output/output.js';
import { writeLine } from '../iostreams/io.js';
import { readJsonInput } from '../cmdutil/input.js';

export const apiMethods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const;

export interface ApiOptions extends GlobalOptions {
  field: string[];
  /** --input; not `input`, which is the global --no-input switch. */
  inputFile?: string;
}

const verb = (program: Root) =>
  program
    .command('api')
    .description("Send a raw request with the profile's credentials, for anything the commands do not cover")
    .argument('<method>', apiMethods.join(', '))
    .argument('<path>', 'the API path, e.g. queues or /api/v2/queues (a path outside /api/ is under /api/v2; a query string may follow)')
    .option(
      '-F, --field <key=value>',
      'a field, repeatable: a query parameter for GET and HEAD, a member of the JSON body otherwise (values that parse as JSON keep their type: 2, true, null, ["a"])',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--input <file>', 'send this JSON file as the body (`-` reads stdin); --field then goes to the query string')
    .addHelpText(
      'after',
      `
The response body goes to stdout (indented on a terminal); errors exit like every command
(3 rejected key, 4 not found, 1 other failures).

Examples:
  $ reportctl api GET queues
  $ reportctl api GET /api/v0/analyses
  $ reportctl api GET /api/v2/templates -F analysisType=counting -F limit=5
  $ reportctl api POST /api/v2/templates/validate-formula -F formula='NIR / (R + eps)'
  $ reportctl api PUT /api/v2/templates/ID --input template.json`,
    );

export function registerApi(
  program: Root,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<ApiOptions, [method: string, path: string]> = (options, method, path) => runApi(method, path, options, deps),
): void {
  const command = verb(program);
  command.action(
    wrap(async (method, path) => {
      // Read --input from this command alone: in the merged options the global --no-input wins.
      const local = command.opts();
      const options: ApiOptions = { ...program.opts(), field: local.field };
      if (local.input !== undefined) options.inputFile = local.input;
      return runF(options, method, path);
    }),
  );
}

/** As `gh api`: a path outside /api/… is the API's own (`templates` is /api/v2/templates). */
export function apiPath(path: string): string {
  const rooted = path.startsWith('/') ? path : `/${path}`;
  return rooted.startsWith('/api/') ? rooted : `/api/v2${rooted}`;
}

function splitField(field: string): [string, string] {
  const at = field.indexOf('=');
  if (at <= 0) throw new UsageError(`--field: expected KEY=VALUE, got \`${field}\``);
  return [field.slice(0, at), field.slice(at + 1)];
}

/** `2` is a number, `true` a boolean, `[1,2]` an array; anything that is not JSON stays text. */
function fieldValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function runApi(methodArgument: string, pathArgument: string, options: ApiOptions, deps: CliDeps): Promise<void> {
  const method = methodArgument.toUpperCase();
  if (!(apiMethods as readonly string[]).includes(method)) {
    throw new UsageError(`unknown method \`${methodArgument}\``, `use one of ${apiMethods.join(', ')}`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathArgument)) {
    throw new UsageError(`give a path, not a URL: \`${pathArgument}\``, 'the base URL comes from --base-url, REPORTCTL_BASE_URL or the profile');
  }
  const path = apiPath(pathArgument);
  const fields = (options.field ?? []).map(splitField);
  const queryOnly = method === 'GET' || method === 'HEAD';
  if (queryOnly && options.inputFile !== undefined) throw new UsageError(`--input: a ${method} request has no body`);

  let body: unknown;
  let query: Record<string, string> = {};
  if (queryOnly || options.inputFile !== undefined) {
    query = Object.fromEntries(fields);
    if (options.inputFile !== undefined) {
      body = await readJsonInput(options.inputFile, deps, '--input');
    }
  } else if (fields.length > 0) {
    body = Object.fromEntries(fields.map(([key, value]) => [key, fieldValue(value)]));
  }

  const session = await deps.api(options);
  const result = await session.api.client.request(method, path, { query, ...(body !== undefined ? { body } : {}) });
  deps.io.progress.stop();
  if (result.body === undefined) return;
  if (typeof result.body === 'string') return writeLine(deps.io.stdout, result.body);
  printJson(deps, result.body);
}
