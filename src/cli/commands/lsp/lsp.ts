import type { CliDeps } from '../../cmdutil/context.js';
import { writeLine } from '../../iostreams/io.js';
import type { ExitCodeValue } from '../../cmdutil/errors.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Root, type RunF } from '../../cmdutil/verb.js';

/** After the flags in `lsp --help`: what it checks, and each editor's setup as the README gives it. */
const LSP_HELP = `
It checks each *.json template the editor opens as \`templates validate --unique-names\` does
(every rule the service applies, and the names of the folder's other files), and each *.txt
formula file as \`formula check --file\` does, as you type; it completes fields, enum values,
the report types and statistics of the template's analysisType and a formula's bands, and
offers the did-you-mean fixes. The catalogs are those of the profile's service, cached as
the CLI caches them; until the service answers, or when it cannot, the cached or bundled
ones, and the editor is told which (a reportctl/catalogs notification and one log line).
The command reportctl.preview starts the open file's page, as \`templates preview FILE
--watch\` does, and opens it in the browser (or shows its one-time URL).

Examples:
  $ reportctl lsp
  $ reportctl lsp --profile staging

In your editor (the README's "In your editor" says the same):
  Neovim 0.8 and later, in init.lua:
    vim.api.nvim_create_autocmd('FileType', {
      pattern = { 'json', 'text' },
      callback = function(args)
        local path = vim.api.nvim_buf_get_name(args.buf)
        if not (path:match('/templates/[^/]+%.json$') or path:match('/formulas/[^/]+%.txt$')) then return end
        vim.lsp.start({ name = 'reportctl', cmd = { 'reportctl', 'lsp' },
          root_dir = vim.fs.dirname(vim.fs.find({ '.git' }, { upward = true, path = path })[1]) })
      end,
    })
  Neovim 0.7 has no vim.lsp.start: start one client and attach it to each buffer:
    local reportctl
    vim.api.nvim_create_autocmd('BufReadPost', {
      pattern = { '*/templates/*.json', '*/formulas/*.txt' },
      callback = function(args)
        reportctl = reportctl or vim.lsp.start_client({ name = 'reportctl', cmd = { 'reportctl', 'lsp' }, root_dir = vim.fn.getcwd() })
        vim.lsp.buf_attach_client(args.buf, reportctl)
      end,
    })
  Helix, in languages.toml:
    [language-server.reportctl]
    command = "reportctl"
    args = ["lsp"]

    [[language]]
    name = "reportctl-template"
    scope = "source.json"
    grammar = "json"
    file-types = [{ glob = "templates/*.json" }, { glob = "formulas/*.txt" }]
    language-servers = ["reportctl"]
  Zed: an extension that declares a reportctl server for JSON, and in settings.json:
    { "lsp": { "reportctl": { "binary": { "path": "reportctl", "arguments": ["lsp"] } } } }
  VS Code: a generic LSP client extension running \`reportctl lsp\` for templates/*.json;
    without one, the schema mapping in .vscode/settings.json (types and enums only):
    { "json.schemas": [{ "fileMatch": ["templates/*.json"], "url": "./.vscode/template.schema.json" }] }

Exit status: 0 after the client's shutdown and exit, 1 when the client leaves without shutdown.`;

const verb = (program: Root) =>
  program
    .command('lsp')
    .description('A language server for template files and formula files, on stdin and stdout, for your editor')
    .option('--stdio', 'talk over stdin and stdout (the default and only transport; accepted because editors pass it)')
    .option('--offline', "check against the catalogs bundled with reportctl, without asking the service")
    .addHelpText('after', LSP_HELP);
export type LspOptions = OptionsOf<typeof verb>;

export function registerLsp(program: Root, deps: CliDeps, wrap: Wrap, runF: RunF<LspOptions> = (options) => runLsp(options, deps)): void {
  bindRun(verb(program), wrap, runF);
}

export async function runLsp(options: LspOptions, deps: CliDeps): Promise<ExitCodeValue> {
  // Started by hand at a terminal it would seem to hang: say what it waits for.
  if (deps.io.isStdinTTY()) writeLine(deps.io.stderr, 'reportctl lsp: waiting for a language client on stdin (an editor starts it; see reportctl lsp --help)');
  // The protocol's libraries load only for this command.
  const { serveLanguage } = await import('./support/server.js');
  return serveLanguage(options, deps);
}
