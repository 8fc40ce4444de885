// An item the service holds, checked against the contract's JSON Schema as the OpenAPI
// document publishes it (what a generated client is built from): field names, types, enum
// values, ISO 8601 UTC timestamps with milliseconds. Only the keywords that schema uses are
// read; any other is refused, so a schema this cannot read never passes an item unread.
type JsonSchema = Record<string, unknown>;

const KNOWN = new Set(['$schema', 'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'minimum', 'maximum', 'pattern', 'format', 'anyOf', 'description']);

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

function typeProblem(schema: JsonSchema, value: unknown): string | undefined {
  if (schema.type === undefined) return undefined;
  const allowed = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const kind = kindOf(value);
  if (allowed.includes(kind) || (kind === 'integer' && allowed.includes('number'))) return undefined;
  return `expected ${allowed.join(' or ')}, found ${kind === 'integer' ? 'number' : kind} ${shown(value)}`;
}

function valueProblem(schema: JsonSchema, value: unknown): string | undefined {
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return `expected one of ${(schema.enum as unknown[]).join(', ')}, found ${shown(value)}`;
  if (typeof value === 'number' && typeof schema.minimum === 'number' && value < schema.minimum) return `expected at least ${schema.minimum}, found ${value}`;
  if (typeof value === 'number' && typeof schema.maximum === 'number' && value > schema.maximum) return `expected at most ${schema.maximum}, found ${value}`;
  if (typeof value === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) {
    return schema.format === 'date-time' ? `expected an ISO 8601 UTC time with milliseconds (…T10:00:00.000Z), found ${shown(value)}` : `expected text matching ${schema.pattern}, found ${shown(value)}`;
  }
  return undefined;
}

/** What is wrong with `value` against `schema`, each as `path: problem`; none when it conforms. */
export function contractProblems(schema: JsonSchema, value: unknown, path = ''): string[] {
  for (const keyword of Object.keys(schema)) if (!KNOWN.has(keyword)) throw new Error(`the contract check does not read ${keyword} (at ${path || 'the item'})`);
  const at = path === '' ? 'the item' : path;
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as JsonSchema[]).map((option) => contractProblems(option, value, path));
    return fits.some((problems) => problems.length === 0) ? [] : fits.reduce((fewest, problems) => (problems.length < fewest.length ? problems : fewest));
  }
  const problem = typeProblem(schema, value) ?? valueProblem(schema, value);
  if (problem !== undefined) return [`${at}: ${problem}`];
  if (Array.isArray(value) && schema.items) return value.flatMap((item, index) => contractProblems(schema.items as JsonSchema, item, `${path}[${index}]`));
  if (kindOf(value) !== 'object') return [];
  const fields = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const prefix = path === '' ? '' : `${path}.`;
  const missing = ((schema.required ?? []) as string[]).filter((name) => !Object.hasOwn(fields, name)).map((name) => `${prefix}${name}: required, absent`);
  const wrong = Object.entries(properties).flatMap(([name, property]) => (Object.hasOwn(fields, name) ? contractProblems(property, fields[name], `${prefix}${name}`) : []));
  return [...missing, ...wrong];
}

/** The steps of a queue or run are in order, numbered from 1 without a gap. */
export function stepOrderProblems(item: unknown): string[] {
  const steps = (item as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return [];
  const orders = steps.map((step) => (step as { order?: unknown } | null)?.order);
  if (orders.some((order) => typeof order !== 'number')) return [];
  return orders.every((order, index) => order === index + 1) ? [] : [`steps: expected order 1, 2, 3 … in turn, found ${orders.join(', ')}`];
}

/** Problems of many items, one per kind (indices and values vary from item to item), with an example and a count. */
export class ProblemTally {
  private readonly kinds = new Map<string, { example: string; items: number }>();

  /** Checks one item against `schema` (and its steps' order when it has steps). */
  check(schema: JsonSchema, item: Record<string, unknown>): void {
    for (const problem of [...contractProblems(schema, item), ...stepOrderProblems(item)]) {
      const kind = problem.replace(/\[\d+\]/g, '[]').replace(/, found .*$/, '');
      const known = this.kinds.get(kind);
      if (known) known.items += 1;
      else this.kinds.set(kind, { example: `${String(item.id)}: ${problem}`, items: 1 });
    }
  }

  /** Each kind as a finding's text: the example, and how many items were so. */
  found(what: string): string[] {
    return [...this.kinds.values()].map(({ example, items }) => `${example}${items > 1 ? ` (${items} ${what} like this)` : ''}`);
  }
}
