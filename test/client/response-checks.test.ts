// Across modules: the generated response checks against zod (src/contract), their oracle.
// The generated response checks (src/client/generated/response-checks.js) against zod, their
// oracle: fresh, each schema's code once, refused where JSON Schema cannot say what zod checks,
// never looser than their schema on bodies derived from the service's own answers, and passing
// those answers (so the client takes its fast path on them).
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkModule, generateResponseChecks, leftOver, OUT_JS } from '../../scripts/response-checks.mjs';
import { shapes } from '../../src/client/response-validation.js';
import { checkedSchemas, type CheckName } from '../../src/contract/client-schemas.js';
import { expressedAs, expressedBy } from '../../src/contract/refinement-keywords.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import { api, tempDir } from '../helpers/server.js';

describe('the committed checks', () => {
  it('are what the generator makes from the contract now, and nothing else', async () => {
    const files = await generateResponseChecks();
    for (const [file, text] of Object.entries(files)) expect(readFileSync(file, 'utf8'), `${file} is stale: run npm run response-checks`).toBe(text);
    expect(leftOver(files), 'no check makes these any more: run npm run response-checks').toEqual([]);
  });

  it('load nothing at run time', () => {
    expect(readFileSync(OUT_JS, 'utf8')).not.toMatch(/\brequire\s*\(|^\s*import\b/m);
  });

  it("hold each schema's code once: a page calls the template's check, the catalog and a template share the layout's", () => {
    const source = readFileSync(OUT_JS, 'utf8');
    // ajv names each function's source after the schema it checks.
    const compiled = [...source.matchAll(/sourceURL="([^"]+)"/g)].map((match) => match[1]);
    expect(compiled.filter((name) => name === 'template')).toHaveLength(1);
    expect(new Set(compiled).size).toBe(compiled.length);
    // A layout element's type is checked once per strictness: lenient (template, template page,
    // catalog; portrait and landscape) and strict (template body).
    expect(source.split('=== "northArrow"').length - 1).toBe(2);
  });
});

describe('the generator refuses what JSON Schema cannot say', () => {
  const generate = (schema: z.ZodType) => () => checkModule({ z, checkedSchemas: { body: schema }, expressedBy });

  it.each([
    ['an undeclared refine', z.object({ name: z.string().refine((name) => name !== 'x') }), /refinement JSON Schema does not express; declare its keywords with expressedAs/],
    ['an undeclared superRefine on an array', z.array(z.string()).superRefine(() => undefined).meta({ uniqueItems: true }), /refinement/],
    ['a default', z.object({ page: z.number().default(1) }), /a zod default/],
    ['a transform in a pipe', z.object({ page: z.string().transform(Number).pipe(z.number()) }), /./],
    ['a coercion', z.object({ page: z.coerce.number() }), /coerces/],
    ['a string check without a pattern', z.object({ name: z.string().trim() }), /overwrite check/],
    ['a .meta() that loosens zod', z.object({ name: z.string().min(3).meta({ minLength: 1 }) }), /replaces zod's minLength/],
    ['a .meta() that drops a required field', z.object({ name: z.string() }).meta({ required: [] }), /name is required by zod but not by its JSON Schema/],
  ])('%s', (_what, schema, message) => {
    expect(generate(schema)).toThrow(message);
  });

  it('a refinement declared with the keyword that says it is accepted, the keyword in the check', () => {
    const unique = expressedAs(z.array(z.string()).superRefine(() => undefined), { uniqueItems: true });
    expect(generate(unique)()).toContain('uniqueItems');
  });
});

/** Every answer the service gave while the suite set up, by the check that reads it. */
const answers: Record<CheckName, unknown[]> = Object.fromEntries(Object.keys(checkedSchemas).map((name) => [name, []])) as never;
const suite = inProcessServiceForSuite();

/** `key: null` sends none. */
async function read(name: CheckName, method: string, path: string, body?: unknown, key: string | null = suite.account.apiKey): Promise<unknown> {
  const response = await api(suite.server, method, path, { ...(key !== null ? { key } : {}), ...(body !== undefined ? { body } : {}) });
  answers[name].push(response.body);
  return response.body;
}

beforeAll(async () => {
  const file = join(tempDir(), 'fixtures.json');
  writeFileSync(
    file,
    JSON.stringify({
      queues: [{ name: 'north', steps: [{ lotId: 'lot-a', analysisType: 'counting' }, { lotId: 'lot-b', analysisType: 'path' }] }],
      runs: [{ queue: 0 }, { queue: 0, advance: 1 }, { queue: 0, advance: 10, estimatedHa: 4.5 }, { queue: 0, advance: 10, failAtStep: 1 }, { queue: 0, cancel: true }],
      analyses: [{ lotId: 'lot-a', analysisType: 'counting', status: 'completed' }, { lotId: 'lot-b', analysisType: 'path', status: 'failed' }],
    }),
  );
  await suite.server.admin('seed', '--account', suite.account.accountId, '--file', file);
  const presets = (await read('presetPage', 'GET', '/api/v2/templates/presets?limit=100')) as { data: Array<{ id: string; seedPayload: Record<string, unknown> }> };
  for (const preset of presets.data) {
    const body = { ...preset.seedPayload, name: `from ${preset.id}` };
    answers.templateBody.push(body);
    const created = (await read('template', 'POST', '/api/v2/templates', body)) as { id: string };
    const stored = await read('template', 'GET', `/api/v2/templates/${created.id}`);
    answers.templateBody.push(stored);
  }
  await read('templatePage', 'GET', '/api/v2/templates?limit=100');
  await read('templatePage', 'GET', '/api/v2/templates?page=50');
  await read('queuePage', 'GET', '/api/v2/queues');
  await read('queueRunPage', 'GET', '/api/v2/queue-runs?limit=100');
  await read('analysisPage', 'GET', '/api/v2/analyses');
  await read('reportTypesCatalog', 'GET', '/api/v2/catalogs/report-types');
  await read('statisticsCatalog', 'GET', '/api/v2/catalogs/statistics');
  await read('vegetationIndexDefaults', 'GET', '/api/v2/catalogs/vegetation-index-defaults');
  await read('validateFormulaResult', 'POST', '/api/v2/templates/validate-formula', { formula: '(NIR - R) / (NIR + R + L)' });
  await read('validateFormulaResult', 'POST', '/api/v2/templates/validate-formula', { formula: 'NIR / (R' });
  await read('errorBody', 'GET', '/api/v2/templates/no-such-template');
  await read('errorBody', 'GET', '/api/v2/templates', undefined, null);
  await read('errorBody', 'POST', '/api/v2/templates', { name: 7, mapResolution: 'high', colour: 'red' });
  await read('errorBody', 'DELETE', '/api/v2/catalogs/statistics');
});

const names = Object.keys(checkedSchemas) as CheckName[];

describe("the service's own answers", () => {
  it.each(names)('%s: every answer passes the check (the fast path), and zod agrees', (name) => {
    expect(answers[name].length).toBeGreaterThan(0);
    for (const body of answers[name]) {
      expect(checkedSchemas[name].safeParse(body).success, JSON.stringify(body)).toBe(true);
      expect(shapes[name].check(body), JSON.stringify(body)).toBe(true);
    }
  });
});

/** A layout element of `body`'s portrait layout, which every preset has. */
const firstElement = (body: unknown) => (body as { layouts: { portrait: { elements: Array<Record<string, unknown>> } } }).layouts.portrait.elements[0]!;

describe('a check refuses what each refinement refuses', () => {
  // Random mutations seldom land just past a refinement's limit: here each is broken on purpose,
  // and zod's message shows the refinement is what refuses it.
  it.each<[CheckName, string, (body: Record<string, unknown>) => void, string]>([
    ['template', 'an element past the right edge', (body) => (firstElement(body).width = 1.01 - (firstElement(body).x as number)), 'x + width must not exceed 1'],
    ['templateBody', 'an element past the bottom edge', (body) => (firstElement(body).height = 1.01 - (firstElement(body).y as number)), 'y + height must not exceed 1'],
    ['templateBody', 'a free-form element property over 1,024 characters as JSON', (body) => (firstElement(body).note = 'x'.repeat(1024)), 'at most 1024 characters as JSON'],
    ['vegetationIndexDefaults', 'colour stops out of order', (body) => Object.values(body.colorScales as Record<string, { stops: unknown[] }>)[0]!.stops.reverse(), 'stop values must ascend'],
    ['template', 'layouts with neither orientation', (body) => (body.layouts = {}), 'needs portrait or landscape'],
    ['templateBody', 'a statistic named twice', (body) => (body.selectedStatistics = ['a', 'a']), 'duplicate statistic a'],
  ])('%s: %s', (name, _what, breakIt, message) => {
    const body = structuredClone(answers[name][0]) as Record<string, unknown>;
    breakIt(body);
    const parsed = checkedSchemas[name].safeParse(body);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain(message);
    expect(shapes[name].check(body)).toBe(false);
  });
});

type Key = string | number;
/** Every path into a JSON value: `["layouts", "portrait", "elements", 0, "x"]`... */
function pathsOf(value: unknown, prefix: Key[] = []): Key[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: Array<[Key, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}
const at = (value: unknown, path: Key[]): unknown => path.reduce<unknown>((node, key) => (node as Record<Key, unknown>)[key], value);

/** Values near every limit the contract has, and of every JSON type. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null, true, false, 0, -0, -1, 0.5, 1, 1.0000001, 2, 71.9, 72, 1200, 1200.5, 2 ** 53, -(2 ** 53), 1e308, 1.5, 100, 101,
    '', ' ', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(2001), 'bell\u0007', 'next\u0085line', 'del\u007f', '\ud800', 'é', '😀'.repeat(100), '😀'.repeat(101),
    '#1a9850', '#1A985', '#1a98500', 'red', 'NDVI', 'Custom_Index', 'vegetation_index', 'general', 'counting', 'paused', 'map', 'a4',
    '2025-06-02T12:00:00.000Z', '2025-06-02T12:00:00Z', '2025-06-02T12:00:00.000+01:00', '2025-02-29T12:00:00.000Z', '2024-02-29T12:00:00.000Z', '2025-13-01T00:00:00.000Z',
    '00000000-0000-0000-0000-000000000000', 'not-a-uuid', [], {}, [null], [{}], { stops: [] }, ['a', 'a'],
  ),
  fc.double({ min: -0.2, max: 1.2, noNaN: true }),
  fc.integer({ min: -2, max: 250 }),
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 2 }),
);

type Mutation =
  | { kind: 'replace' | 'delete' | 'duplicate' | 'swap'; pick: number; value: unknown }
  | { kind: 'add'; pick: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: oddValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), value: fc.constant(null) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('duplicate' as const, 'swap' as const), pick: fc.nat(), value: fc.constant(null) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'id', 'saviL', 'formula', 'indexName', 'colorScale', 'portrait', 'issues', 'errors'), fc.string({ maxLength: 8 })),
      value: oddValue,
    }),
  },
);

/** A body with some values, at any depth, replaced, removed, repeated, reordered or joined by odd keys; as JSON.parse gives it. */
function mutate(base: unknown, mutations: Mutation[]): unknown {
  const body = structuredClone(base);
  for (const change of mutations) {
    const paths = [[] as Key[], ...pathsOf(body)];
    const containers = paths.filter((path) => typeof at(body, path) === 'object' && at(body, path) !== null);
    if (change.kind === 'add') {
      const holder = at(body, containers[change.pick % containers.length]!);
      if (!Array.isArray(holder)) Object.defineProperty(holder, change.key, { value: structuredClone(change.value), enumerable: true, writable: true, configurable: true });
      continue;
    }
    if (change.kind === 'duplicate' || change.kind === 'swap') {
      const arrays = containers.map((path) => at(body, path)).filter((value): value is unknown[] => Array.isArray(value) && value.length > 0);
      if (arrays.length === 0) continue;
      const array = arrays[change.pick % arrays.length]!;
      if (change.kind === 'duplicate') array.push(structuredClone(array[change.pick % array.length]));
      else array.reverse();
      continue;
    }
    const inner = paths.slice(1);
    if (inner.length === 0) continue;
    const path = inner[change.pick % inner.length]!;
    const parent = at(body, path.slice(0, -1)) as Record<Key, unknown>;
    const last = path[path.length - 1]!;
    if (change.kind === 'replace') parent[last] = structuredClone(change.value);
    else if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  }
  return JSON.parse(JSON.stringify(body)) as unknown;
}

describe('a check is never looser than its schema', () => {
  it.each(names)('%s: a mutated answer the check passes, zod passes too', (name) => {
    const verdicts = { passed: 0, refused: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...answers[name]), fc.array(mutation, { minLength: 1, maxLength: 4 }), (answer, mutations) => {
        const body = mutate(answer, mutations);
        if (!shapes[name].check(body)) {
          verdicts.refused += 1;
          return;
        }
        verdicts.passed += 1;
        const parsed = checkedSchemas[name].safeParse(body, { reportInput: true });
        expect(parsed.success, `${JSON.stringify(body)}\n${parsed.error?.message}`).toBe(true);
      }),
      { numRuns: 300 },
    );
    // Both verdicts show up, so the property is not vacuous.
    expect(verdicts.passed).toBeGreaterThan(0);
    expect(verdicts.refused).toBeGreaterThan(0);
  });
});
