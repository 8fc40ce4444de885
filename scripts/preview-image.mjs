// Draws the README's preview image, docs/preview.svg: a template of the demo account (the
// one `serve --demo` stores) through the renderer built from src/preview with esbuild, the
// same code `templates preview` and the dashboard run. A test fails when the file is stale.
// Run: npm run preview-image          (--stdout prints the SVG instead of writing it)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importSource } from './import-src.mjs';

const DEMO_TEMPLATE = 'preset-replanting-vigor-savi-custom';
const OUT = fileURLToPath(new URL('../docs/preview.svg', import.meta.url));

// The demo seed stores each preset under its demo name, completed with the catalog's defaults.
const entry = `
import { demoTemplatePresetIds } from './src/server/seed/demo.ts';
import { presets, seedCatalogs } from './src/contract/default-catalogs.ts';
import { validateTemplateBody } from './src/contract/template.ts';
import { renderTemplateSvg } from './src/preview/index.ts';
const { presetId, name } = demoTemplatePresetIds.find((demo) => demo.presetId === ${JSON.stringify(DEMO_TEMPLATE)});
const preset = presets.find((candidate) => candidate.id === presetId);
const validation = validateTemplateBody({ ...preset.seedPayload, name }, seedCatalogs);
if (!validation.success) throw new Error('the demo template is not valid: ' + JSON.stringify(validation.issues));
export const preview = renderTemplateSvg(validation.template, { orientation: 'landscape', width: 720 });
`;
const { preview } = await importSource(entry);
if (preview.problems.length > 0) throw new Error(`the demo template has problems: ${preview.problems.join(' ')}`);

if (process.argv.includes('--stdout')) process.stdout.write(`${preview.svg}\n`);
else {
  writeFileSync(OUT, `${preview.svg}\n`);
  console.log(`wrote ${OUT}`);
}
