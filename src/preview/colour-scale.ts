import { colourStopsOf, type Box, type ColourStop } from './page.js';
import { contentId, escapeXml, num } from './xml.js';

export interface ColourScaleDrawing {
  /** Goes inside the document's `<defs>`. */
  defs: string;
  body: string;
}

/**
 * A colour scale drawn into `box`: its stops as a horizontal gradient, and each stop's value
 * under the bar when `fontSize` is given (labels that would collide are left out).
 */
export function drawColourScale(stops: ColourStop[], box: Box, fontSize?: number): ColourScaleDrawing {
  const min = stops[0]!.value;
  const max = stops[stops.length - 1]!.value;
  const span = max - min || 1;
  const offset = (value: number) => (value - min) / span;
  const id = contentId('rc-scale', JSON.stringify(stops));
  const gradientStops = stops.map((stop) => `<stop offset="${num(offset(stop.value) * 100)}%" stop-color="${stop.color}"/>`).join('');
  const defs = `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="0">${gradientStops}</linearGradient>`;

  const barHeight = fontSize === undefined ? box.height : Math.max(box.height - fontSize * 1.4, box.height * 0.4);
  const parts = [`<rect class="colour-scale" x="${num(box.x)}" y="${num(box.y)}" width="${num(box.width)}" height="${num(barHeight)}" fill="url(#${id})" stroke="#555555" stroke-width="${num(Math.max(box.height * 0.02, 0.1))}"/>`];
  if (fontSize !== undefined) {
    let lastEnd = -Infinity;
    stops.forEach((stop, index) => {
      const label = String(stop.value);
      const x = box.x + offset(stop.value) * box.width;
      const halfWidth = label.length * fontSize * 0.3;
      const anchor = index === 0 ? 'start' : index === stops.length - 1 ? 'end' : 'middle';
      const start = anchor === 'start' ? x : anchor === 'end' ? x - 2 * halfWidth : x - halfWidth;
      if (start < lastEnd && index !== stops.length - 1) return;
      lastEnd = start + 2 * halfWidth + fontSize * 0.4;
      parts.push(
        `<text class="colour-scale-value" x="${num(x)}" y="${num(box.y + barHeight + fontSize * 1.1)}" font-size="${num(fontSize)}" text-anchor="${anchor}">${escapeXml(label)}</text>`,
      );
    });
  }
  return { defs, body: parts.join('') };
}

/** A colour scale on its own (as a catalog's vegetation-index defaults hold them), as an SVG document. */
export function renderColourScaleSvg(scale: unknown, options: { width?: number; height?: number } = {}): string {
  const width = options.width ?? 320;
  const height = options.height ?? 48;
  const stops = colourStopsOf(scale);
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" font-family="sans-serif" role="img">`;
  if (!stops) {
    return `${open}<title>No colour scale</title><rect x="0" y="0" width="${num(width)}" height="${num(height)}" fill="#eeeeee"/><text x="${num(width / 2)}" y="${num(height / 2)}" font-size="${num(Math.min(12, height / 2))}" text-anchor="middle" dominant-baseline="middle" fill="#555555">no colour scale</text></svg>`;
  }
  const fontSize = Math.min(12, height * 0.3);
  const pad = 1;
  const drawing = drawColourScale(stops, { x: pad, y: pad, width: width - 2 * pad, height: height - 2 * pad }, fontSize);
  const summary = `Colour scale from ${stops[0]!.value} to ${stops[stops.length - 1]!.value}`;
  return `${open}<title>${escapeXml(summary)}</title><defs>${drawing.defs}</defs>${drawing.body}</svg>`;
}
