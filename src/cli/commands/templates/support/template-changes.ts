// What changed between two versions of a template, by element and field, as terraform lists
// `~ x = 0.05 -> 0.62` above a plan: what a reviewer reads before the line diff, and what the
// plan's pictures outline. Pure: two parsed documents in, words out.
import { layoutPage } from '../../../../preview/index.js';

/** Past this many lines a template's list says how many more there are. */
export const MAX_FIELD_CHANGES = 20;

const ORIENTATIONS = ['portrait', 'landscape'] as const;
type Orientation = (typeof ORIENTATIONS)[number];
/** The box of an element, in the order people read it. */
const BOX_FIELDS = ['x', 'y', 'width', 'height'];

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A value for a line people read: a number or a word as it is, other text quoted, structures cut short. */
export function shortValue(value: unknown): string {
  if (typeof value === 'string') return /^[\w.#-]+$/.test(value) ? value : JSON.stringify(value);
  const json = JSON.stringify(value) ?? 'null';
  if (json.length <= 40) return json;
  return Array.isArray(value) ? `[${value.length} items]` : '{…}';
}

/** One layout element and where it sits, matched with its counterpart by type and occurrence. */
interface PlacedElement {
  index: number;
  element: Json;
}
export interface ElementPair {
  /** `map`, or `text 2` when the layout has more than one text. */
  label: string;
  before?: PlacedElement;
  after?: PlacedElement;
}

function elementsOf(document: Json, orientation: Orientation): Json[] | undefined {
  const layout = isRecord(document.layouts) ? document.layouts[orientation] : undefined;
  if (!isRecord(layout)) return undefined;
  return Array.isArray(layout.elements) ? layout.elements.map((element) => (isRecord(element) ? element : {})) : [];
}

/**
 * The elements of one layout before and after, paired by type and order of occurrence (the
 * first map with the first map): elements have no ids, and a moved map is still the map.
 */
export function elementPairs(before: Json, after: Json, orientation: Orientation): ElementPair[] {
  const group = (elements: Json[] = []) => {
    const byType = new Map<string, PlacedElement[]>();
    elements.forEach((element, index) => {
      const type = typeof element.type === 'string' ? element.type : 'element';
      byType.set(type, [...(byType.get(type) ?? []), { index, element }]);
    });
    return byType;
  };
  const [old, now] = [group(elementsOf(before, orientation)), group(elementsOf(after, orientation))];
  const pairs: ElementPair[] = [];
  for (const type of new Set([...now.keys(), ...old.keys()])) {
    const [was, is] = [old.get(type) ?? [], now.get(type) ?? []];
    const count = Math.max(was.length, is.length);
    for (let n = 0; n < count; n++) {
      pairs.push({ label: count === 1 ? type : `${type} ${n + 1}`, ...(was[n] ? { before: was[n] } : {}), ...(is[n] ? { after: is[n] } : {}) });
    }
  }
  return pairs.sort((a, b) => (a.after ?? a.before)!.index - (b.after ?? b.before)!.index);
}

/** `height 0.8 → 0.75`, one per field that differs, box fields first; a field gone or new gets − or +. */
function fieldDifferences(before: Json, after: Json, skip: ReadonlySet<string> = new Set()): string[] {
  const keys = [...new Set([...BOX_FIELDS, ...Object.keys(after), ...Object.keys(before)])].filter((key) => !skip.has(key) && (key in before || key in after));
  return keys.flatMap((key) => {
    if (!(key in before)) return [`${key} + ${shortValue(after[key])}`];
    if (!(key in after)) return [`${key} − ${shortValue(before[key])}`];
    return same(before[key], after[key]) ? [] : [`${key} ${shortValue(before[key])} → ${shortValue(after[key])}`];
  });
}

function layoutChanges(before: Json, after: Json): string[] {
  const lines: string[] = [];
  for (const orientation of ORIENTATIONS) {
    const [was, is] = [elementsOf(before, orientation), elementsOf(after, orientation)];
    const where = `layouts.${orientation}`;
    if (was === undefined && is === undefined) continue;
    if (was === undefined) {
      lines.push(`${where}: + a layout of ${is!.length} ${is!.length === 1 ? 'element' : 'elements'}`);
      continue;
    }
    if (is === undefined) {
      lines.push(`${where}: − the layout`);
      continue;
    }
    for (const pair of elementPairs(before, after, orientation)) {
      if (!pair.before) lines.push(`${where}: + ${pair.label} at ${BOX_FIELDS.map((key) => `${key} ${shortValue(pair.after!.element[key])}`).join(', ')}`);
      else if (!pair.after) lines.push(`${where}: − ${pair.label}`);
      else {
        const fields = fieldDifferences(pair.before.element, pair.after.element, new Set(['type']));
        if (fields.length > 0) lines.push(`${where} ${pair.label}: ${fields.join(', ')}`);
      }
    }
  }
  return lines;
}

/** The statistics a template's selection gains and loses. */
export function statisticsChange(before: Json, after: Json): { added: string[]; removed: string[] } {
  const list = (document: Json) => (Array.isArray(document.selectedStatistics) ? document.selectedStatistics.map(String) : []);
  const [was, is] = [list(before), list(after)];
  return { added: is.filter((name) => !was.includes(name)), removed: was.filter((name) => !is.includes(name)) };
}

/** An array of words read as a set (selectedStatistics): what it loses and gains. */
function setChange(key: string, before: unknown[], after: unknown[]): string[] {
  const removed = before.filter((item) => !after.some((other) => same(other, item)));
  const added = after.filter((item) => !before.some((other) => same(other, item)));
  if (removed.length === 0 && added.length === 0) return [`${key}: the same, in another order`];
  return [`${key}: ${[...removed.map((item) => `− ${shortValue(item)}`), ...added.map((item) => `+ ${shortValue(item)}`)].join(', ')}`];
}

/** A list of objects (colour stops): by position, then what was added or removed at the end. */
function listChange(key: string, before: unknown[], after: unknown[]): string[] {
  const lines: string[] = [];
  for (let at = 0; at < Math.min(before.length, after.length); at++) {
    const [was, is] = [before[at], after[at]];
    if (same(was, is)) continue;
    lines.push(isRecord(was) && isRecord(is) ? `${key}.${at}: ${fieldDifferences(was, is).join(', ')}` : `${key}.${at}: ${shortValue(was)} → ${shortValue(is)}`);
  }
  if (after.length > before.length) lines.push(`${key}: + ${after.length - before.length} at the end (${after.length} in all)`);
  if (before.length > after.length) lines.push(`${key}: − the last ${before.length - after.length} (${after.length} left)`);
  return lines;
}

function valueChange(key: string, before: unknown, after: unknown): string[] {
  if (same(before, after)) return [];
  if (before === undefined) return [`${key}: + ${shortValue(after)}`];
  if (after === undefined) return [`${key}: − ${shortValue(before)}`];
  const words = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item !== 'object' || item === null);
  if (words(before) && words(after)) return setChange(key, before as unknown[], after as unknown[]);
  if (Array.isArray(before) && Array.isArray(after)) return listChange(key, before, after);
  if (isRecord(before) && isRecord(after)) {
    // Plain fields on one line (`margins: top 1 → 2`); a structure inside on lines of its own.
    const nested = new Set([...Object.keys(after), ...Object.keys(before)].filter((field) => typeof before[field] === 'object' || typeof after[field] === 'object'));
    const plain = fieldDifferences(before, after, nested);
    return [...(plain.length > 0 ? [`${key}: ${plain.join(', ')}`] : []), ...[...nested].flatMap((field) => valueChange(`${key}.${field}`, before[field], after[field]))];
  }
  return [`${key}: ${shortValue(before)} → ${shortValue(after)}`];
}

/**
 * Each change from `before` to `after`, one line a field or element, in the template's order:
 * `layouts.landscape map: height 0.8 → 0.75`, `selectedStatistics: − replantingAreaHa, +
 * replantPlantsNeeded`. At most `limit` lines, the last saying how many more there are.
 */
export function fieldChanges(before: unknown, after: unknown, limit = MAX_FIELD_CHANGES): string[] {
  const [was, is] = [isRecord(before) ? before : {}, isRecord(after) ? after : {}];
  const lines: string[] = [];
  for (const key of new Set([...Object.keys(is), ...Object.keys(was)])) {
    lines.push(...(key === 'layouts' && isRecord(was.layouts) && isRecord(is.layouts) ? layoutChanges(was, is) : valueChange(key, was[key], is[key])));
  }
  if (lines.length <= limit) return lines;
  return [...lines.slice(0, limit - 1), `… and ${lines.length - limit + 1} more changes`];
}

/** The paths of the elements a picture outlines: before, those removed or changed; after, those added or changed. */
export function changedElements(before: unknown, after: unknown, orientation: Orientation): { before: string[]; after: string[] } {
  const [was, is] = [isRecord(before) ? before : {}, isRecord(after) ? after : {}];
  const path = (at: PlacedElement) => `layouts.${orientation}.elements.${at.index}`;
  const changed = { before: [] as string[], after: [] as string[] };
  for (const pair of elementPairs(was, is, orientation)) {
    if (pair.before && pair.after && same(pair.before.element, pair.after.element)) continue;
    if (pair.before) changed.before.push(path(pair.before));
    if (pair.after) changed.after.push(path(pair.after));
  }
  return changed;
}

/** The orientations a document has a layout for (portrait when it has none: what the renderer draws). */
export function orientationsOf(document: unknown): Orientation[] {
  const layouts = isRecord(document) ? document.layouts : undefined;
  const present = ORIENTATIONS.filter((orientation) => isRecord(layouts) && orientation in layouts);
  return present.length > 0 ? present : ['portrait'];
}

const parsedOrUndefined = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Each page's layout problems after a change (overlaps, elements off the page), as the
 * previews draw them: `landscape: The map at … overlaps the title at ….`, with `(new)` where
 * the page before the change did not have it.
 */
export function pageProblems(beforeText: string | undefined, afterText: string | undefined): string[] {
  const [before, after] = [parsedOrUndefined(beforeText), parsedOrUndefined(afterText)];
  if (after === undefined) return [];
  const had = before === undefined ? [] : orientationsOf(before);
  return orientationsOf(after).flatMap((orientation) => {
    const old = had.includes(orientation) ? new Set(layoutPage(before, { orientation }).layoutProblems) : undefined;
    return layoutPage(after, { orientation }).layoutProblems.map((problem) => `${orientation}: ${problem}${old && !old.has(problem) ? ' (new)' : ''}`);
  });
}
