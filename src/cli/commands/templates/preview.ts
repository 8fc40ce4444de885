import type { Resvg as ResvgRenderer } from '@resvg/resvg-js';
import { statSync } from 'node:fs';
import type { Preview } from '../../../preview/index.js';
import type { CliDeps } from '../../cmdutil/context.js';
import { asFileError, CliError, ExitCode, UsageError } from '../../cmdutil/errors.js';
import { writeData, writeLine } from '../../iostreams/io.js';
import { choiceOption } from '../../output/list-options.js';
import { integerOption } from '../../cmdutil/option-parsers.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { connect } from '../../session/session.js';
import { resolveTemplate } from '../../session/resolve.js';
import { escapeControls } from '../../iostreams/sanitize.js';
import { jsonText } from '../../output/output.js';
import { readJsonInput } from '../../cmdutil/input.js';
import type { Style } from '../../iostreams/style.js';
import type { PreviewState } from './support/preview-watch/server.js';
import { Option } from '../../cmdutil/typed-commander.js';

const orientations = ['portrait', 'landscape'] as const;
const formats = ['svg', 'png'] as const;
type ImageFormat = (typeof formats)[number];

const verb = (parent: Parent) =>
  parent
    .command('preview')
    .description("Draw a template's page: a sketch on a terminal, SVG when piped, or an SVG or PNG file")
    .argument('[id]', 'template id, a unique prefix of it (6+ characters) or the exact name; `-` reads a document from stdin')
    .option('-f, --file <path>', 'a template document as JSON instead (`-` reads stdin)')
    .addOption(choiceOption('--orientation <orientation>', 'which layout to draw (default: portrait when the template has one)', orientations))
    .option('-o, --out <file>', 'write the picture to FILE.svg or FILE.png (replaced whole, never half-written)')
    // 4096 px wide is about 28 megapixels on legal paper: a PNG that size still fits in memory.
    .option('--width <px>', 'width of the SVG or PNG in pixels, 16–4096 (default 600)', integerOption(16, 4096))
    .addOption(
      new Option('-w, --watch', 'serve a page on this computer that redraws the file at every save (FILE or --file FILE); Ctrl-C stops').conflicts(['out']),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ reportctl templates preview 3c44560e              # a sketch of the page on the terminal
  $ reportctl templates preview "Crop vigor (NDVI)" --orientation landscape --out page.png
  $ reportctl templates preview --file template.json > page.svg
  $ reportctl templates get ID --json | reportctl templates preview - --out page.svg
  $ reportctl templates preview template.json --watch  # open the URL it prints

The page is drawn at its paper size with its margins, each element a box in its type's colour.
Elements that overlap or leave the page are red, and every problem (these, and what the
service would refuse) is listed on stderr; the page is still drawn. Exit status: 0 once drawn
(use \`templates validate\` to fail on a bad document), 2 on a bad file or flag.

With --watch, the argument is a file. The page is served on 127.0.0.1 at a free port and shows
the page in each orientation (or --orientation's), redrawn at every save however the editor
saves. A save that is not a valid template shows what \`templates validate --offline\` says,
beside the last good picture. The URL (stdout) works once: the page trades its code for a
session and takes it out of the address bar. Ctrl-C stops it, with exit status 0.`,
    );
export type TemplatesPreviewOptions = OptionsOf<typeof verb>;

export function registerTemplatesPreview(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesPreviewOptions, [reference: string | undefined]> = (options, reference) => runTemplatesPreview(reference, options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesPreview(reference: string | undefined, options: TemplatesPreviewOptions, deps: CliDeps): Promise<void> {
  if ((reference === undefined) === (options.file === undefined)) {
    throw new UsageError(
      reference === undefined ? 'missing the template to preview' : 'give a template id or --file, not both',
      'give an ID (or `-` for stdin) or --file PATH',
    );
  }
  if (options.watch) return watchTemplateFile(options.file ?? reference!, options, deps);
  const format = options.out === undefined ? undefined : imageFormatOf(options.out);
  const document = await templateDocument(reference, options, deps);
  const { renderTemplateSvg } = await import('../../../preview/index.js');
  const preview = renderTemplateSvg(document, {
    ...(options.orientation ? { orientation: options.orientation } : {}),
    ...(options.width !== undefined ? { width: options.width } : {}),
  });
  const { layout } = preview;

  if (options.out !== undefined && format !== undefined) {
    const image = format === 'svg' ? preview.svg : await rasterise(preview.svg);
    // Loaded here: it loads node:crypto, which other commands never need.
    const { writeFileAtomically } = await import('../../output/output-file.js');
    await writeFileAtomically(options.out, image, '--out');
    if (options.json) writeLine(deps.io.stdout, jsonText(deps, summary(preview, { out: options.out })));
    else writeLine(deps.io.stderr, `wrote ${options.out} (${layout.paperSize} ${layout.orientation})`);
  } else if (options.json) {
    // The whole SVG in one line: waited out like any large output, for a slow reader. The
    // name and problems may be the service's: on a terminal, its C1 characters escaped.
    await writeData(deps.io.stdout, jsonText(deps, summary(preview, { svg: preview.svg })) + '\n');
  } else if (deps.io.isStdoutTTY()) {
    const { sketchPage } = await import('../../../preview/sketch.js');
    const style = await deps.io.style(options.color);
    const lines = sketchPage(layout, {
      columns: deps.io.terminalWidth(),
      ...(deps.io.stdout.rows ? { rows: deps.io.stdout.rows } : {}),
      colour: style.enabled,
      paint: (text, hex) => style.hex(hex, text),
    });
    await writeData(deps.io.stdout, lines.join('\n') + '\n');
  } else {
    await writeData(deps.io.stdout, preview.svg + '\n');
  }
  await reportProblems(preview.problems, options, deps);
}

/** --watch: the page's URL on stdout, then a line on stderr per save, until Ctrl-C. */
async function watchTemplateFile(file: string, options: TemplatesPreviewOptions, deps: CliDeps): Promise<void> {
  if (file === '-') throw new UsageError('--watch needs a file: stdin cannot be saved again', 'give FILE or --file FILE');
  try {
    if (!statSync(file).isFile()) throw new UsageError(`--watch: ${file} is not a file`, 'give the template file to watch');
  } catch (error) {
    throw asFileError(error, file, { flag: options.file !== undefined ? '--file' : 'FILE' });
  }
  const { startPreviewWatch } = await import('./support/preview-watch/server.js');
  const style = await deps.io.style(options.color, 'stderr');
  const say = (state: PreviewState) => writeLine(deps.io.stderr, savedLine(state, style));
  let first: PreviewState | undefined;
  const watch = await startPreviewWatch({
    file,
    orientation: options.orientation,
    width: options.width,
    now: deps.clock.now,
    onState: (state) => (first === undefined ? (first = state) : say(state)),
    onError: (error) => writeLine(deps.io.stderr, style.red(`error: ${error instanceof Error ? error.message : String(error)}`)),
  });
  writeLine(deps.io.stdout, options.json ? jsonText(deps, { url: watch.url, file }) : watch.url);
  writeLine(deps.io.stderr, `previewing ${escapeControls(file)}: open the URL above in a browser (it works once); Ctrl-C stops`);
  if (first) say(first);
  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) return resolve();
    deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await watch.close();
  writeLine(deps.io.stderr, 'stopped');
}

/** `12:03:04 valid`, `12:03:09 invalid: 2 issues (the page lists them)`: for a person at the terminal. */
function savedLine(state: PreviewState, style: Style): string {
  const time = new Date(state.checkedAt).toTimeString().slice(0, 8);
  if (state.kind === 'picture') {
    const problems = state.problems.length === 0 ? '' : state.problems.length === 1 ? ', 1 problem (the page lists it)' : `, ${state.problems.length} problems (the page lists them)`;
    return `${time} ${style.green('valid')}${problems}`;
  }
  const { reason, issues } = state.verdict;
  if (reason !== undefined) return `${time} ${style.red('invalid')}: ${escapeControls(reason)}`;
  return `${time} ${style.red('invalid')}: ${issues.length === 1 ? '1 issue' : `${issues.length} issues`} (the page lists them)`;
}

function imageFormatOf(file: string): ImageFormat {
  const extension = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  if (extension === 'svg' || extension === 'png') return extension;
  throw new UsageError(`--out: ${file} is neither .svg nor .png`, `name the file FILE.svg or FILE.png (${formats.join(', ')})`);
}

/** The document from stdin, a file or the service (by id, id prefix or name). */
async function templateDocument(reference: string | undefined, options: TemplatesPreviewOptions, deps: CliDeps): Promise<unknown> {
  if (options.file !== undefined || reference === '-') {
    return options.file !== undefined ? readJsonInput(options.file, deps, '--file') : readJsonInput('-', deps, 'stdin');
  }
  const session = await connect(options, deps);
  const template = await resolveTemplate(session.api, reference!, deps.signal);
  deps.io.progress.stop();
  return template;
}

/** PNG through resvg, loaded only here so no other command pays for its native binary. */
async function rasterise(svg: string): Promise<Uint8Array> {
  let Resvg: typeof ResvgRenderer;
  try {
    ({ Resvg } = await import('@resvg/resvg-js'));
  } catch (error) {
    throw new CliError(
      `PNG output needs @resvg/resvg-js, which does not load here: ${error instanceof Error ? error.message : String(error)}`,
      ExitCode.failed,
      'write --out FILE.svg instead',
    );
  }
  // System fonts for the labels; the SVG names only the generic sans-serif family.
  return new Resvg(svg, { font: { loadSystemFonts: true } }).render().asPng();
}

/** What --json prints: the page drawn, its problems, and the SVG or the file written. */
function summary(preview: Preview, rest: { svg: string } | { out: string }) {
  const { layout } = preview;
  return { name: layout.name, paperSize: layout.paperSize, orientation: layout.orientation, problems: preview.problems, ...rest };
}

async function reportProblems(problems: string[], options: TemplatesPreviewOptions, deps: CliDeps): Promise<void> {
  if (problems.length === 0 || options.json) return;
  const style = await deps.io.style(options.color, 'stderr');
  writeLine(deps.io.stderr, style.yellow(problems.length === 1 ? '1 problem:' : `${problems.length} problems:`));
  for (const problem of problems) writeLine(deps.io.stderr, escapeControls(`  ${problem}`));
}
