import { stableJson } from '../../../output/stable-json.js';
import type { Answer, NormalisedAnswer, ScenarioContext, Step } from './step.js';

/** Every name a parity run gives starts with this; a run's own adds a random part. */
export const PREFIX_FAMILY = 'reportctl-parity-';

/** The headers the contract names; a value that differs by run is replaced by its kind. */
const NAMED_HEADERS: Record<string, (value: string, context: ScenarioContext) => string> = {
  'x-ratelimit-limit': integerKind,
  'x-ratelimit-remaining': integerKind,
  'x-ratelimit-reset': integerKind,
  'ratelimit-policy': (value) => value.replace(/\d+/g, '<n>'),
  ratelimit: (value) => value.replace(/\d+/g, '<n>'),
  'retry-after': integerKind,
  etag: (value) => (value.startsWith('W/') ? '<weak etag>' : '<etag>'),
  'cache-control': (value) => value,
  location: (value, context) => normaliseText(value, context),
  deprecation: (value) => value,
  link: (value) => value,
  allow: (value) => value,
  'content-type': (value) => value.toLowerCase().replace(/\s+/g, ''),
};

function integerKind(value: string): string {
  return /^\d+$/.test(value.trim()) ? '<integer>' : value;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const KEY = /rctl_[A-Za-z0-9_-]+/g;

function normaliseText(text: string, context: ScenarioContext): string {
  if (ISO_TIME.test(text)) return '<time>';
  return text.split(context.prefix).join(`${PREFIX_FAMILY}<run>-`).replace(UUID, '<id>').replace(KEY, '<key>');
}

function normaliseValue(value: unknown, context: ScenarioContext): unknown {
  if (typeof value === 'string') return normaliseText(value, context);
  if (Array.isArray(value)) return value.map((item) => normaliseValue(item, context));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normaliseValue(item, context)]));
  }
  return value;
}

export function normaliseAnswer(answer: Answer, step: Step, context: ScenarioContext): NormalisedAnswer {
  const headers: Record<string, string> = {};
  for (const [name, normalise] of Object.entries(NAMED_HEADERS)) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = normalise(value, context);
  }
  if (answer.body === undefined) return { status: answer.status, headers };
  let body = normaliseValue(step.project ? step.project(answer.body, context) : answer.body, context);
  if (step.unordered && typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data)) {
    const data = (body as { data: unknown[] }).data
      .map((item) => ({ item, text: stableJson(item) }))
      .sort((a, b) => a.text.localeCompare(b.text))
      .map(({ item }) => item);
    body = { ...body, data };
  }
  return { status: answer.status, headers, body };
}
