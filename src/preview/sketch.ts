import { elementLabels, type ColourStop, type PageLayout, type PlacedElement } from './page.js';
import { elementColours, problemColour, unknownElementColour } from './colours.js';

export interface SketchOptions {
  /** Terminal columns the sketch may use. */
  columns: number;
  /** Terminal rows, when known: the page is made short enough to fit with its legend. */
  rows?: number;
  /** Whether `paint` shows colour: without it the colour scale is written as its range. */
  colour?: boolean;
  /** Colours `text` in `colour` (#rrggbb); identity when colour is off. */
  paint?: (text: string, colour: string) => string;
}

interface Cell {
  character: string;
  colour?: string;
}

const LIGHT = { topLeft: '┌', topRight: '┐', bottomLeft: '└', bottomRight: '┘', across: '─', down: '│' };
const HEAVY = { topLeft: '┏', topRight: '┓', bottomLeft: '┗', bottomRight: '┛', across: '━', down: '┃' };
const DOTTED = { topLeft: '┌', topRight: '┐', bottomLeft: '└', bottomRight: '┘', across: '┄', down: '┆' };
type Lines = typeof LIGHT;

const PRINTABLE_COLOUR = '#a0a8b0';
/** Terminal cells are about twice as tall as they are wide. */
const CELL_ASPECT = 2;
const MIN_COLUMNS = 16;

/**
 * A page as lines of Unicode box drawing, sized to the terminal: the page, its printable area
 * (dotted), each element as a box labelled with its type (heavy and marked `!` when it overlaps
 * or leaves the page), then a legend of the element types drawn. Pure: layout in, lines out.
 */
export function sketchPage(layout: PageLayout, options: SketchOptions): string[] {
  const paint = options.paint ?? ((text: string) => text);
  const { width, height } = gridSize(layout, options, (columns) => legend(layout, paint, columns).length);
  const grid: Cell[][] = Array.from({ length: height }, () => Array.from({ length: width }, () => ({ character: ' ' })));
  // Within one cell beyond the grid (off it, so not drawn): loops over a box's cells end however large it is.
  const onGrid = (cell: number, size: number) => (Number.isNaN(cell) ? -1 : Math.min(Math.max(cell, -1), size));
  const column = (mm: number) => onGrid(Math.round((mm / layout.page.width) * (width - 1)), width);
  const row = (mm: number) => onGrid(Math.round((mm / layout.page.height) * (height - 1)), height);
  const put = (y: number, x: number, character: string, colour?: string) => {
    const cell = grid[y]?.[x];
    if (cell) Object.assign(cell, { character, colour });
  };
  const box = (left: number, top: number, right: number, bottom: number, lines: Lines, colour?: string) => {
    for (let x = left + 1; x < right; x++) [top, bottom].forEach((y) => put(y, x, lines.across, colour));
    for (let y = top + 1; y < bottom; y++) [left, right].forEach((x) => put(y, x, lines.down, colour));
    put(top, left, lines.topLeft, colour);
    put(top, right, lines.topRight, colour);
    put(bottom, left, lines.bottomLeft, colour);
    put(bottom, right, lines.bottomRight, colour);
  };
  const write = (y: number, x: number, text: string, room: number, colour?: string) => {
    [...clip(text, room)].forEach((character, index) => put(y, x + index, character, colour));
  };

  const { printable } = layout;
  if (printable.width > 0 && printable.height > 0) {
    box(column(printable.x), row(printable.y), column(printable.x + printable.width), row(printable.y + printable.height), DOTTED, PRINTABLE_COLOUR);
  }
  // The paper's edge wins over a margin of nothing.
  box(0, 0, width - 1, height - 1, LIGHT);
  for (const element of layout.elements) {
    const colour = colourOf(element);
    const left = column(element.box.x);
    const top = row(element.box.y);
    // An edge ends one cell before the next box's starts, so boxes that touch do not share a line.
    const right = Math.max(column(element.box.x + element.box.width) - 1, left + 1);
    const bottom = Math.max(row(element.box.y + element.box.height) - 1, top + 1);
    box(left, top, right, bottom, element.flagged ? HEAVY : LIGHT, colour);
    const room = right - left - 1;
    write(top, left + 1, `${element.flagged ? '!' : ''}${edgeCaptionOf(element, layout)}`, room, colour);
    const inside = insideLines(element, layout, room, options.colour ?? false);
    inside.slice(0, Math.max(bottom - top - 1, 0)).forEach((cells, index) => {
      cells.forEach((cell, offset) => put(top + 1 + index, left + 1 + offset, cell.character, cell.colour));
    });
  }
  return [heading(layout), ...grid.map((cells) => paintRuns(cells, paint)), ...legend(layout, paint, width)];
}

function gridSize(layout: PageLayout, options: SketchOptions, legendRows: (width: number) => number): { width: number; height: number } {
  const ratio = layout.page.height / layout.page.width / CELL_ASPECT;
  const heightOf = (width: number) => Math.max(Math.round(width * ratio), 4);
  let width = Math.max(Math.floor(options.columns) - 1, MIN_COLUMNS);
  if (options.rows !== undefined && options.rows > 0) {
    // The heading, the page, its legend (more lines when narrow) and the shell's prompt after
    // them all fit, so the heading is not scrolled away.
    const rows = options.rows;
    const fits = (columns: number) => 1 + heightOf(columns) + legendRows(columns) + 1 <= rows;
    width = Math.min(width, Math.max(Math.floor((rows - 2) / ratio), MIN_COLUMNS));
    while (width > MIN_COLUMNS && !fits(width)) width -= 1;
  }
  return { width, height: heightOf(width) };
}

const colourOf = (element: PlacedElement) => (element.flagged ? problemColour : element.type ? elementColours[element.type] : unknownElementColour);
/** The box's top edge: its type, and on the title the index (the one line a short title surely has). */
function edgeCaptionOf(element: PlacedElement, layout: PageLayout): string {
  if (!element.type) return 'unknown';
  if (element.type === 'title' && layout.index) return `title: ${indexLine(layout.index)}`;
  return elementLabels[element.type];
}

const indexLine = (index: NonNullable<PageLayout['index']>) => (index.formula === undefined ? index.name : `${index.name} = ${index.formula}`);

/** What an element shows inside its box: the title's name and index, the legend's colour scale. */
function insideLines(element: PlacedElement, layout: PageLayout, room: number, colour: boolean): Cell[][] {
  const text = (line: string): Cell[] => [...clip(line, room)].map((character) => ({ character }));
  if (element.type === 'title') return [text(layout.name)];
  if (element.type === 'legend' && layout.colourStops && room > 0) {
    const stops = layout.colourStops;
    const range = `${stops[0]!.value} … ${stops[stops.length - 1]!.value}`;
    if (!colour) return [text(`${layout.index?.name ?? 'scale'} ${range}`)];
    const bar = Array.from({ length: room }, (_, index) => ({ character: '█', colour: colourAt(stops, room === 1 ? 0 : index / (room - 1)) }));
    return [bar, text(range)];
  }
  return [];
}

/** The colour of the stop nearest to a fraction of the scale's range. */
function colourAt(stops: ColourStop[], fraction: number): string {
  const min = stops[0]!.value;
  const max = stops[stops.length - 1]!.value;
  const value = min + fraction * (max - min);
  return stops.reduce((best, stop) => (Math.abs(stop.value - value) < Math.abs(best.value - value) ? stop : best)).color;
}

function heading(layout: PageLayout): string {
  const cm = (mm: number) => String(Math.round(mm) / 10);
  return clean(`${layout.name}: ${layout.paperSize} ${layout.orientation}, ${cm(layout.page.width)} × ${cm(layout.page.height)} cm`);
}

function legend(layout: PageLayout, paint: (text: string, colour: string) => string, width: number): string[] {
  const types = [...new Set(layout.elements.map((element) => element.type))];
  const entries = types.map((type) => `${paint('■', type ? elementColours[type] : unknownElementColour)} ${type ? elementLabels[type] : 'unknown'}`);
  if (layout.elements.some((element) => element.flagged)) entries.push(`${paint('━ !', problemColour)} overlaps or leaves the page`);
  entries.push(`${paint('┄', PRINTABLE_COLOUR)} margins`);
  // Wrap by visible width: painted entries carry escape sequences.
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const entry of entries) {
    const visibleLength = entry.replace(SGR, '').length;
    if (used > 0 && used + 2 + visibleLength > width) {
      lines.push(line);
      [line, used] = ['', 0];
    }
    line += `${used > 0 ? '  ' : ''}${entry}`;
    used += (used > 0 ? 2 : 0) + visibleLength;
  }
  return [...lines, line];
}

/** Consecutive cells of one colour painted together, so a line carries few escape sequences. */
function paintRuns(cells: Cell[], paint: (text: string, colour: string) => string): string {
  let line = '';
  let run = '';
  let colour: string | undefined;
  const flush = () => {
    line += colour === undefined ? run : paint(run, colour);
    run = '';
  };
  for (const cell of cells) {
    if (cell.colour !== colour) {
      flush();
      colour = cell.colour;
    }
    run += cell.character;
  }
  flush();
  return line.replace(/\s+$/, '');
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

// Control characters would move the cursor or inject escapes: a name is user input.
// eslint-disable-next-line no-control-regex
const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');

function clip(text: string, room: number): string {
  const characters = [...clean(text)];
  if (room <= 0) return '';
  return characters.length <= room ? characters.join('') : `${characters.slice(0, room - 1).join('')}…`;
}
