import { CUSTOM_INDEX, MAX_LAYOUT_ELEMENTS, type Catalogs, type VegetationIndexDefaults } from '../contract/catalogs.js';
import { vegetationIndexDefaults as bundledDefaults } from '../contract/default-catalogs.js';
import { templateBodySchema, templateCatalogIssues, withoutServerOwnedFields } from '../contract/template.js';
import { toValidationIssues } from '../contract/errors.js';
import { layoutElementTypes, paperSizes } from '../contract/vocabulary.js';

export type Orientation = 'portrait' | 'landscape';
export type PaperSize = (typeof paperSizes)[number];
export type ElementType = (typeof layoutElementTypes)[number];

/** Portrait sides in millimetres. */
export const paperSizesMm: Record<PaperSize, { width: number; height: number }> = {
  letter: { width: 215.9, height: 279.4 },
  legal: { width: 215.9, height: 355.6 },
  a4: { width: 210, height: 297 },
  a3: { width: 297, height: 420 },
};

/** How an element type reads in a label or a sentence. */
export const elementLabels: Record<ElementType, string> = {
  map: 'map',
  legend: 'legend',
  title: 'title',
  statistics: 'statistics',
  text: 'text',
  logo: 'logo',
  scale: 'scale',
  northArrow: 'north arrow',
};

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One layout element placed on the paper, in millimetres from the page's top-left corner. */
export interface PlacedElement {
  /** Where the element sits in the document, as validation issues name it. */
  path: string;
  /** The element's type; `null` when it is not one of the service's. */
  type: ElementType | null;
  box: Box;
  /** Overlaps another element or leaves the printable area. */
  flagged: boolean;
}

export interface ColourStop {
  value: number;
  color: string;
}

/** A template document read as a page: what both the SVG and the terminal sketch draw. */
export interface PageLayout {
  name: string;
  paperSize: PaperSize;
  orientation: Orientation;
  /** The paper, in millimetres (landscape has the sides swapped). */
  page: { width: number; height: number };
  /** The printable area inside the margins, in millimetres. */
  printable: Box;
  elements: PlacedElement[];
  /** The vegetation index the title names, and for Custom_Index its formula. */
  index?: { name: string; formula?: string };
  /** The colour scale the legend draws (the template's, or the catalog's for its index). */
  colourStops?: ColourStop[];
  problems: string[];
  /** The overlaps among `problems`, by the elements' paths (the first of each pair as listed). */
  overlaps: Overlap[];
  /** Of `problems`, those of the page itself (overlaps, elements off it), not of the document's fields. */
  layoutProblems: string[];
}

export interface Overlap {
  path: string;
  otherPath: string;
  message: string;
}

export interface PageLayoutOptions {
  orientation?: Orientation;
  /** When given, the rules that need the catalogs are checked too, and their defaults fill gaps. */
  catalogs?: Catalogs;
}

const MM_PER_CM = 10;
/** An overlap thinner than this (in normalised units) is two boxes touching. */
const EPSILON = 1e-9;
/** Pairs grow with the square of the elements: past this many, the rest are counted. */
const MAX_OVERLAPS_LISTED = 50;
/** A document may come from any file: past this many of its problems, the rest are counted. */
const MAX_ISSUES_LISTED = 50;
/**
 * Elements read from a layout: as many as the service stores. The overlap check compares every
 * pair, so a file of 100,000 elements would otherwise take hours.
 */
const MAX_ELEMENTS_DRAWN = MAX_LAYOUT_ELEMENTS;
/**
 * How far beyond the printable area an edge is drawn, in printable widths (the SVG shows at
 * most a page beyond each edge): `"width": 1e308` must not make a box of infinite size.
 */
const DRAWN_UNIT_RANGE = { min: -1, max: 2 };
/** Map furniture: drawn on the map on purpose, so inside a map it is no overlap. */
const MAP_OVERLAYS: ReadonlySet<string> = new Set(['northArrow', 'scale']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * Reads a template document (a file's body or a GET result) as a page. Never throws: what
 * cannot be read falls back to the catalog's defaults and is listed in `problems`.
 */
export function layoutPage(template: unknown, options: PageLayoutOptions = {}): PageLayout {
  const defaults = options.catalogs?.vegetationIndexDefaults ?? bundledDefaults;
  const document = isRecord(template) ? template : {};
  const problems = validationProblems(template, options.catalogs);
  const fieldProblems = problems.length;

  const paperSize = (paperSizes as readonly unknown[]).includes(document.paperSize) ? (document.paperSize as PaperSize) : defaults.defaults.paperSize;
  const layouts = isRecord(document.layouts) ? document.layouts : (defaults.layouts as Record<string, unknown>);
  const orientation = options.orientation ?? (layouts.portrait === undefined && layouts.landscape !== undefined ? 'landscape' : 'portrait');
  const sides = paperSizesMm[paperSize];
  const page = orientation === 'portrait' ? { ...sides } : { width: sides.height, height: sides.width };
  const printable = printableArea(page, document.margins, defaults, problems);

  const layout = layouts[orientation];
  const rawElements = isRecord(layout) && Array.isArray(layout.elements) ? layout.elements : [];
  if (layout === undefined) problems.push(`The template has no ${orientation} layout: the page is drawn empty.`);
  if (rawElements.length > MAX_ELEMENTS_DRAWN) {
    problems.push(`The ${orientation} layout has ${rawElements.length} elements: only the first ${MAX_ELEMENTS_DRAWN} are drawn.`);
  }
  const overlaps: Overlap[] = [];
  const elements = placeElements(rawElements.slice(0, MAX_ELEMENTS_DRAWN), `layouts.${orientation}.elements`, printable, page, { problems, overlaps });

  const result: PageLayout = {
    name: typeof document.name === 'string' && document.name !== '' ? document.name : '(unnamed template)',
    paperSize,
    orientation,
    page,
    printable,
    elements,
    problems,
    overlaps,
    layoutProblems: problems.slice(fieldProblems),
  };
  if (document.reportCategory === 'vegetation_index' && typeof document.indexName === 'string') {
    result.index = { name: document.indexName };
    if (document.indexName === CUSTOM_INDEX && typeof document.formula === 'string') result.index.formula = document.formula;
    result.colourStops = colourStopsOf(document.colorScale ?? defaults.colorScales[document.indexName]);
  }
  return result;
}

function validationProblems(template: unknown, catalogs: Catalogs | undefined): string[] {
  const parsed = templateBodySchema.safeParse(template, { reportInput: true });
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error).map((issue) => sentence(issue.message));
    if (issues.length <= MAX_ISSUES_LISTED) return issues;
    return [...issues.slice(0, MAX_ISSUES_LISTED), `And ${issues.length - MAX_ISSUES_LISTED} more problems.`];
  }
  if (!catalogs) return [];
  return templateCatalogIssues(withoutServerOwnedFields(parsed.data), catalogs).map((issue) => sentence(issue.message));
}

const sentence = (message: string) => (/[.!?]$/.test(message) ? message : `${message}.`);

function printableArea(page: { width: number; height: number }, margins: unknown, defaults: VegetationIndexDefaults, problems: string[]): Box {
  const fallback = defaults.defaults.margins;
  const side = (name: 'top' | 'right' | 'bottom' | 'left') => {
    const value = isRecord(margins) ? margins[name] : undefined;
    return (isFiniteNumber(value) && value >= 0 ? value : fallback[name]) * MM_PER_CM;
  };
  const [top, right, bottom, left] = [side('top'), side('right'), side('bottom'), side('left')];
  const width = page.width - left - right;
  const height = page.height - top - bottom;
  if (width <= 0 || height <= 0) {
    problems.push('The margins leave no printable area on the page.');
  }
  return { x: Math.min(left, page.width), y: Math.min(top, page.height), width: Math.max(width, 0), height: Math.max(height, 0) };
}

interface ReadElement {
  path: string;
  type: ElementType | null;
  label: string;
  /** Normalised to the printable area. */
  unit: Box;
}

function placeElements(
  raw: unknown[],
  basePath: string,
  printable: Box,
  page: { width: number; height: number },
  found: { problems: string[]; overlaps: Overlap[] },
): PlacedElement[] {
  const read: ReadElement[] = [];
  raw.forEach((candidate, index) => {
    const path = `${basePath}.${index}`;
    const element = isRecord(candidate) ? candidate : {};
    const { x, y, width, height } = element;
    if (!isFiniteNumber(x) || !isFiniteNumber(y) || !isFiniteNumber(width) || !isFiniteNumber(height) || width < 0 || height < 0) {
      found.problems.push(`The element at ${path} has no box (x, y, width and height from 0 to 1), so it is not drawn.`);
      return;
    }
    const type = (layoutElementTypes as readonly unknown[]).includes(element.type) ? (element.type as ElementType) : null;
    read.push({ path, type, label: type ? elementLabels[type] : 'element', unit: { x, y, width, height } });
  });

  const flagged = new Set<ReadElement>();
  for (const element of read) {
    const { x, y, width, height } = element.unit;
    if (x < -EPSILON || y < -EPSILON || x + width > 1 + EPSILON || y + height > 1 + EPSILON) {
      flagged.add(element);
      const place = outsidePage(toPage(element.unit, printable), page) ? 'the page' : 'the printable area';
      found.problems.push(`The ${element.label} at ${element.path} leaves ${place}.`);
    }
  }
  let overlapCount = 0;
  read.forEach((first, i) => {
    for (const second of read.slice(i + 1)) {
      if (!overlaps(first.unit, second.unit) || isMapOverlay(first, second) || isMapOverlay(second, first)) continue;
      flagged.add(first);
      flagged.add(second);
      overlapCount += 1;
      if (overlapCount > MAX_OVERLAPS_LISTED) continue;
      const message = `The ${first.label} at ${first.path} overlaps the ${second.label} at ${second.path}.`;
      found.problems.push(message);
      found.overlaps.push({ path: first.path, otherPath: second.path, message });
    }
  });
  if (overlapCount > MAX_OVERLAPS_LISTED) found.problems.push(`And ${overlapCount - MAX_OVERLAPS_LISTED} more overlaps.`);
  return read.map((element) => ({ path: element.path, type: element.type, box: toPage(drawable(element.unit), printable), flagged: flagged.has(element) }));
}

/** The box with its edges brought within DRAWN_UNIT_RANGE: finite, whatever the document says. */
function drawable(unit: Box): Box {
  const edge = (value: number) => Math.min(Math.max(value, DRAWN_UNIT_RANGE.min), DRAWN_UNIT_RANGE.max);
  const [left, top, right, bottom] = [edge(unit.x), edge(unit.y), edge(unit.x + unit.width), edge(unit.y + unit.height)];
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function toPage(unit: Box, printable: Box): Box {
  return {
    x: printable.x + unit.x * printable.width,
    y: printable.y + unit.y * printable.height,
    width: unit.width * printable.width,
    height: unit.height * printable.height,
  };
}

const outsidePage = (box: Box, page: { width: number; height: number }) =>
  box.x < -EPSILON || box.y < -EPSILON || box.x + box.width > page.width + EPSILON || box.y + box.height > page.height + EPSILON;

function overlaps(a: Box, b: Box): boolean {
  const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const down = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return across > EPSILON && down > EPSILON;
}

/** A north arrow or scale wholly inside a map is drawn on the map on purpose. */
function isMapOverlay(overlay: ReadElement, map: ReadElement): boolean {
  if (map.type !== 'map' || overlay.type === null || !MAP_OVERLAYS.has(overlay.type)) return false;
  const inner = overlay.unit;
  const outer = map.unit;
  return (
    inner.x >= outer.x - EPSILON &&
    inner.y >= outer.y - EPSILON &&
    inner.x + inner.width <= outer.x + outer.width + EPSILON &&
    inner.y + inner.height <= outer.y + outer.height + EPSILON
  );
}

/** The stops that can be drawn, in ascending order; `undefined` when fewer than two remain. */
export function colourStopsOf(scale: unknown): ColourStop[] | undefined {
  if (!isRecord(scale) || !Array.isArray(scale.stops)) return undefined;
  const stops = scale.stops
    .filter((stop): stop is ColourStop => isRecord(stop) && isFiniteNumber(stop.value) && typeof stop.color === 'string' && HEX_COLOUR.test(stop.color))
    .map((stop) => ({ value: stop.value, color: stop.color.toLowerCase() }))
    .sort((a, b) => a.value - b.value);
  return stops.length >= 2 ? stops : undefined;
}
