// The template preview: a template document in, an SVG string out. Pure (no I/O, nothing
// outside contract/ and formula/), so the CLI and the dashboard draw with the same code.
export { changeColour, renderTemplateSvg, type PageChanges, type Preview, type PreviewOptions } from './svg.js';
export { elementColours, problemColour, unknownElementColour } from './colours.js';
export { renderColourScaleSvg } from './colour-scale.js';
export { layoutPage, elementLabels, paperSizesMm, type Orientation, type PageLayout, type PlacedElement, type Overlap, type ElementType, type Box, type ColourStop } from './page.js';
export { sketchPage, type SketchOptions } from './sketch.js';
export { escapeXml } from './xml.js';
