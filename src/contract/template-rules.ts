import { MAX_TEMPLATE_BYTES, type Catalogs } from './catalogs.js';
import type { ErrorCode, ValidationIssue } from './errors.js';
import { validateTemplateBody, type TemplateBody } from './template.js';

// Every rule the service applies to a template document, in the order it applies them: the
// service (POST, PUT, a snapshot import), `templates validate` (online and offline), `diff`,
// `apply`, `edit` and the language server all check a document here, so they refuse the same
// documents with the same path and words.

/** The largest request body the service reads. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Far deeper than any template (a layout element's own properties included), far shallower
 * than what overflows the stack when a document is serialised again (JSON.stringify recurses).
 */
export const MAX_JSON_DEPTH = 64;
/** Reported at most, so that a body full of refused values gets a short answer. */
const MAX_VALUE_ISSUES = 20;

/** What the service says of a body it refuses whole (path ""). */
export const bodyRuleMessages = {
  tooLarge: 'The request body is larger than 1 MiB',
  notUtf8: 'The body is not valid UTF-8',
  tooDeep: `The body is nested more than ${MAX_JSON_DEPTH} levels deep`,
  forbiddenKey: 'The body has a forbidden key (__proto__, or constructor.prototype)',
  storedTooLarge: `A stored template is at most ${MAX_TEMPLATE_BYTES / 1024} KiB (as JSON, with its defaults)`,
} as const;

/** A document's verdict: the stored template, or the issues and the error the service answers with. */
export type TemplateCheck =
  | { success: true; template: TemplateBody }
  | { success: false; error: Extract<ErrorCode, 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE'>; issues: ValidationIssue[] };

const refusedWhole = (error: 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE', message: string): TemplateCheck => ({
  success: false,
  error,
  issues: [{ path: '', message }],
});

/**
 * Checks a template document (parsed JSON) as the service checks a body: its size as sent,
 * its nesting and keys, the values JSON cannot carry back, the schema and catalog rules, and
 * its size as stored with its defaults.
 */
export function checkTemplateDocument(document: unknown, catalogs: Catalogs): TemplateCheck {
  const shape = shapeOf(document);
  if (shape.bytes > MAX_BODY_BYTES) return refusedWhole('PAYLOAD_TOO_LARGE', bodyRuleMessages.tooLarge);
  if (shape.depth > MAX_JSON_DEPTH) return refusedWhole('VALIDATION_FAILED', bodyRuleMessages.tooDeep);
  if (shape.forbiddenKey) return refusedWhole('VALIDATION_FAILED', bodyRuleMessages.forbiddenKey);
  const refused = refusedValues(document);
  if (refused.length > 0) return { success: false, error: 'VALIDATION_FAILED', issues: refused };
  const validation = validateTemplateBody(document, catalogs);
  if (!validation.success) return { success: false, error: 'VALIDATION_FAILED', issues: validation.issues };
  if (utf8Length(JSON.stringify(validation.template)) > MAX_TEMPLATE_BYTES) return refusedWhole('PAYLOAD_TOO_LARGE', bodyRuleMessages.storedTooLarge);
  return validation;
}

/** A UTF-16 half without its other half: JSON's `\ud800` escape makes one; UTF-8 cannot carry it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** C0 controls but tab, LF and CR (text and formulas may hold those), DEL, and C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Values JSON.parse accepts that could not be stored and read back as sent: numbers too large
 * for a double (`1e309` is Infinity, which JSON.stringify writes as null), strings and keys
 * with a lone surrogate (not UTF-8, so not storable as text) or with control characters
 * (stored, and then printed to someone's terminal). Each is reported at its own path.
 */
export function refusedValues(body: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const refuse = (path: string, message: string) => {
    if (issues.length < MAX_VALUE_ISSUES) issues.push({ path, message: `${path === '' ? 'request body' : path}: ${message}` });
  };
  const stringProblem = (text: string) =>
    LONE_SURROGATE.test(text) ? 'contains a lone surrogate' : CONTROL.test(text) ? 'contains a control character' : null;
  const visit = (value: unknown, path: string): void => {
    if (issues.length >= MAX_VALUE_ISSUES) return;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) refuse(path, 'must be a finite number');
    } else if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) refuse(path, problem);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, path === '' ? String(index) : `${path}.${index}`));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const itemPath = path === '' ? key : `${path}.${key}`;
        const problem = stringProblem(key);
        if (problem) refuse(itemPath, `the name ${problem}`);
        visit(item, itemPath);
      }
    }
  };
  visit(body, '');
  return issues;
}

/** A key JSON.parse keeps as data that the service's parser refuses as a prototype attack. */
function isForbidden(node: object): boolean {
  if (Object.hasOwn(node, '__proto__')) return true;
  const constructor = (node as { constructor?: unknown }).constructor;
  return Object.hasOwn(node, 'constructor') && typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype');
}

/**
 * The document's size as JSON.stringify writes it (what a client sends), its deepest nesting
 * and whether it holds a forbidden key, in one walk without recursion: a document may be
 * nested deeper than the stack allows.
 */
function shapeOf(document: unknown): { bytes: number; depth: number; forbiddenKey: boolean } {
  let bytes = 0;
  let depth = 0;
  let forbiddenKey = false;
  const pending: Array<[value: unknown, depth: number]> = [[document, 0]];
  while (pending.length > 0) {
    const [value, level] = pending.pop()!;
    if (value === null || typeof value !== 'object') {
      bytes += typeof value === 'string' ? utf8Length(JSON.stringify(value)) : String(typeof value === 'number' && !Number.isFinite(value) ? null : value).length;
      continue;
    }
    depth = Math.max(depth, level + 1);
    if (Array.isArray(value)) {
      bytes += 2 + Math.max(value.length - 1, 0);
      for (const item of value) pending.push([item, level + 1]);
      continue;
    }
    forbiddenKey ||= isForbidden(value);
    const entries = Object.entries(value);
    bytes += 2 + Math.max(entries.length - 1, 0);
    for (const [key, item] of entries) {
      bytes += utf8Length(JSON.stringify(key)) + 1;
      pending.push([item, level + 1]);
    }
  }
  return { bytes, depth, forbiddenKey };
}

/** UTF-8 bytes of text that JSON.stringify wrote (a lone surrogate is escaped there, so never seen). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2;
      at++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * A folder rule, not the service's: a template is known by its exact name, so `diff` and
 * `apply` refuse a folder where two files hold one. `validate --unique-names` and the
 * language server say so at the `name` of each such file.
 */
export function nameClashIssue(name: string, otherFile: string): ValidationIssue {
  return { path: 'name', message: `name: ${JSON.stringify(name)} is also the name in ${otherFile}; each file of a folder needs its own` };
}
