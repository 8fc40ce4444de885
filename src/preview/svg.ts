import { drawColourScale } from './colour-scale.js';
import { elementColours, problemColour, unknownElementColour } from './colours.js';
import { elementLabels, layoutPage, type Box, type PageLayout, type PageLayoutOptions, type PlacedElement } from './page.js';
import { escapeXml, num } from './xml.js';

export interface PreviewOptions extends PageLayoutOptions {
  /** Width of the SVG in pixels (its height follows the paper). */
  width?: number;
  /** Small: no label text, for list thumbnails. */
  thumbnail?: boolean;
  /** What a change does to this page, for a plan's before and after pictures. */
  changes?: PageChanges;
}

/** The elements a change touches (outlined), and the statistics it adds or removes (listed below the page). */
export interface PageChanges {
  /** Paths as `PlacedElement.path` gives them (`layouts.portrait.elements.2`). */
  elements: readonly string[];
  statistics?: { added: readonly string[]; removed: readonly string[] };
}

/** The outline of a changed element: a colour no element type or problem uses. */
export const changeColour = '#7b2cbf';

export interface Preview {
  svg: string;
  /** Human sentences: validation issues, overlaps, elements off the page. */
  problems: string[];
  /** What was drawn, for a caption or a terminal sketch. */
  layout: PageLayout;
}

export const DEFAULT_WIDTH = 600;
const DEFAULT_THUMBNAIL_WIDTH = 120;

/** A template document drawn as its page. Pure; never throws on a bad document. */
export function renderTemplateSvg(template: unknown, options: PreviewOptions = {}): Preview {
  const layout = layoutPage(template, options);
  const thumbnail = options.thumbnail ?? false;
  const width = positiveOr(options.width, thumbnail ? DEFAULT_THUMBNAIL_WIDTH : DEFAULT_WIDTH);
  const paper = viewBox(layout);
  const unit = layout.page.width / 216;
  const statistics = statisticsLine(options.changes);
  // The changed statistics are words, not boxes: a line below the page says them.
  const band = statistics === undefined ? 0 : 9 * unit;
  const view = { ...paper, height: paper.height + band };
  // Whole pixels, so a PNG of it has exactly these dimensions.
  const height = Math.max(1, Math.round((width * view.height) / view.width));
  // Text and strokes scale with the paper (`unit`), so A3 and letter look alike at the same width.
  const defs: string[] = [];
  const body: string[] = [];

  if (paper.x < 0 || paper.y < 0 || paper.width > layout.page.width || paper.height > layout.page.height) {
    body.push(`<rect class="outside" x="${num(paper.x)}" y="${num(paper.y)}" width="${num(paper.width)}" height="${num(paper.height)}" fill="#e4e4e4"/>`);
  }
  body.push(
    `<rect class="page" x="0" y="0" width="${num(layout.page.width)}" height="${num(layout.page.height)}" fill="#ffffff" stroke="#888888" stroke-width="${num(0.5 * unit)}"/>`,
    `<rect class="printable" x="${num(layout.printable.x)}" y="${num(layout.printable.y)}" width="${num(layout.printable.width)}" height="${num(layout.printable.height)}" fill="none" stroke="#a0a8b0" stroke-width="${num(0.3 * unit)}" stroke-dasharray="${num(2 * unit)} ${num(1.5 * unit)}"/>`,
  );
  const changed = new Set(options.changes?.elements ?? []);
  for (const element of layout.elements) {
    const drawing = drawElement(element, layout, thumbnail, unit);
    defs.push(...drawing.defs);
    body.push(drawing.body);
    if (changed.has(element.path)) body.push(changeOutline(element.box, unit));
  }
  if (statistics !== undefined) {
    const line = { x: paper.x + 2 * unit, y: paper.y + paper.height, width: paper.width - 4 * unit, height: band };
    body.push(`<g class="changed-statistics">${textLine(statistics, line, line.y + 6 * unit, 3.6 * unit, 'bold', changeColour)}</g>`);
  }

  const caption = `${layout.name}: ${layout.paperSize} ${layout.orientation}`;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="${num(view.x)} ${num(view.y)} ${num(view.width)} ${num(view.height)}" font-family="sans-serif" role="img" data-paper-size="${layout.paperSize}" data-orientation="${layout.orientation}">`,
    `<title>${escapeXml(caption)}</title>`,
    defs.length > 0 ? `<defs>${[...new Set(defs)].join('')}</defs>` : '',
    ...body,
    '</svg>',
  ].join('');
  return { svg, problems: layout.problems, layout };
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The paper, grown to show elements that leave it (at most a page's size beyond each edge). */
function viewBox(layout: PageLayout): Box {
  const { width, height } = layout.page;
  let [left, top, right, bottom] = [0, 0, width, height];
  for (const { box } of layout.elements) {
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width);
    bottom = Math.max(bottom, box.y + box.height);
  }
  [left, top] = [Math.max(left, -width), Math.max(top, -height)];
  [right, bottom] = [Math.min(right, 2 * width), Math.min(bottom, 2 * height)];
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function drawElement(element: PlacedElement, layout: PageLayout, thumbnail: boolean, unit: number): { defs: string[]; body: string } {
  const colour = element.flagged ? problemColour : element.type ? elementColours[element.type] : unknownElementColour;
  const { box } = element;
  const classes = ['element', `element-${element.type ?? 'unknown'}`, ...(element.flagged ? ['problem'] : [])].join(' ');
  const parts = [
    `<rect x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(box.height)}" fill="${colour}" fill-opacity="${element.flagged ? 0.22 : 0.15}" stroke="${colour}" stroke-width="${num((element.flagged ? 0.9 : 0.5) * unit)}"${element.flagged ? ` stroke-dasharray="${num(2.5 * unit)} ${num(1.2 * unit)}"` : ''}/>`,
  ];
  const defs: string[] = [];
  const inset = Math.min(1.5 * unit, box.width * 0.08, box.height * 0.08);
  const inner = { x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset };
  const fontSize = Math.max(Math.min(3.6 * unit, inner.height * 0.3), 0.5);

  if (element.type === 'legend' && layout.colourStops && inner.width > 0 && inner.height > 0) {
    const labelled = !thumbnail && inner.height > fontSize * 3.5;
    const scaleBox = labelled
      ? { x: inner.x, y: inner.y + fontSize * 1.5, width: inner.width, height: Math.min(inner.height - fontSize * 1.5, fontSize * 4) }
      : { x: inner.x, y: inner.y + inner.height * 0.3, width: inner.width, height: inner.height * 0.4 };
    const scale = drawColourScale(layout.colourStops, scaleBox, labelled ? fontSize * 0.8 : undefined);
    defs.push(scale.defs);
    parts.push(scale.body);
    if (labelled) parts.push(textLine(captionOf(element, layout), inner, inner.y + fontSize, fontSize, 'bold'));
  } else if (!thumbnail) {
    const lines = [captionOf(element, layout), ...detailLines(element, layout)];
    // Smaller text before fewer lines: the title must show the index it names.
    const size = Math.min(fontSize, Math.max(inner.height / (lines.length * 1.25), 1.4 * unit));
    const lineHeight = size * 1.25;
    const room = Math.max(1, Math.floor(inner.height / lineHeight));
    lines.slice(0, room).forEach((line, index) => {
      parts.push(textLine(line, inner, inner.y + size + index * lineHeight, size, index === 0 ? 'bold' : 'normal'));
    });
  }
  return { defs, body: `<g class="${classes}" data-path="${escapeXml(element.path)}">${parts.join('')}</g>` };
}

/** The box's caption: its type, and on the legend the index it colours. */
function captionOf(element: PlacedElement, layout: PageLayout): string {
  if (!element.type) return 'unknown element';
  if (element.type === 'legend' && layout.index) return `legend: ${layout.index.name}`;
  return elementLabels[element.type];
}

/** What the title says: the template's name and, for a vegetation index, the index. */
function detailLines(element: PlacedElement, layout: PageLayout): string[] {
  if (element.type !== 'title') return [];
  const lines = [layout.name];
  if (layout.index) lines.push(layout.index.formula === undefined ? layout.index.name : `${layout.index.name} = ${layout.index.formula}`);
  return lines;
}

/** One line of text clipped to the box's width (approximately: no font metrics here). */
function textLine(text: string, box: Box, baseline: number, fontSize: number, weight: 'bold' | 'normal', colour = '#222222'): string {
  const fits = Math.max(1, Math.floor(box.width / (fontSize * 0.56)));
  const characters = [...text];
  const shown = characters.length > fits ? `${characters.slice(0, Math.max(fits - 1, 1)).join('')}…` : text;
  return `<text x="${num(box.x)}" y="${num(baseline)}" font-size="${num(fontSize)}"${weight === 'bold' ? ' font-weight="bold"' : ''} fill="${colour}">${escapeXml(shown)}</text>`;
}

/** A box drawn around a changed element, just outside it, so the element's own colours stay readable. */
function changeOutline(box: Box, unit: number): string {
  const gap = 1.2 * unit;
  return `<rect class="changed" x="${num(box.x - gap)}" y="${num(box.y - gap)}" width="${num(box.width + 2 * gap)}" height="${num(box.height + 2 * gap)}" fill="none" stroke="${changeColour}" stroke-width="${num(0.9 * unit)}" rx="${num(gap)}"/>`;
}

/** `Statistics: − replantingAreaHa, + replantPlantsNeeded`, or undefined when the change leaves them. */
function statisticsLine(changes: PageChanges | undefined): string | undefined {
  const { added = [], removed = [] } = changes?.statistics ?? {};
  if (added.length === 0 && removed.length === 0) return undefined;
  return `Statistics: ${[...removed.map((name) => `− ${name}`), ...added.map((name) => `+ ${name}`)].join(', ')}`;
}
