// reportctl lsp with a real editor: Debian's Neovim 0.7, headless, set up with the README's
// init.lua for it (vim.lsp.start_client and buf_attach_client, the forms before vim.lsp.start),
// on a template in a pulled folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { vegetationBody } from '../../contract/fixtures.js';
import { cleanEnv, reportctlBinDir } from '../../helpers/cli.js';
import { testWith } from '../../helpers/programs.js';
import { closedUrl, tempDir } from '../../helpers/server.js';

/** The README's Neovim 0.7 setup: the block that starts its client with vim.lsp.start_client. */
function readmeInitLua(): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const block = [...readme.matchAll(/```lua\n([\s\S]*?)```/g)].map((match) => match[1]!).find((lua) => lua.includes('vim.lsp.start_client'));
  expect(block).toBeDefined();
  return block!;
}

/**
 * Opens `file` in a headless Neovim set up with the README's init.lua (reportctl on PATH, no
 * service: the bundled catalogs), runs `lua` once diagnostics came, and returns what it
 * passed to finish(), as JSON.
 */
async function inNeovim(folder: string, file: string, lua: string): Promise<unknown> {
  const out = join(folder, 'out.json');
  const init = join(folder, 'init.lua');
  const script = join(folder, 'test.lua');
  writeFileSync(init, readmeInitLua());
  writeFileSync(
    script,
    `local out = ${JSON.stringify(out)}
local function finish(value)
  local handle = io.open(out, 'w'); handle:write(vim.fn.json_encode(value)); handle:close()
  vim.cmd('qa!')
end
local ok, problem = pcall(function()
  vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  ${lua}
end)
if not ok then finish({ error = tostring(problem) }) end
`,
  );
  const env = cleanEnv({ HOME: folder, PATH: `${reportctlBinDir()}:${process.env.PATH}`, REPORTCTL_BASE_URL: await closedUrl() });
  const result = spawnSync('nvim', ['--headless', '-u', init, '-i', 'NONE', '-n', file, '-c', `luafile ${script}`], { cwd: folder, encoding: 'utf8', timeout: 60_000, env });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  const answer = JSON.parse(readFileSync(out, 'utf8')) as { error?: string };
  expect(answer.error).toBeUndefined();
  return answer;
}

/** A pulled folder holding one template with a wrong reportType, a formula error and a mistyped statistic. */
function pulledFolder() {
  const folder = tempDir('reportctl-nvim-');
  mkdirSync(join(folder, 'templates'));
  const file = join(folder, 'templates', 'lot-7-vigour.json');
  const text = `${JSON.stringify(vegetationBody({ reportType: 'vigor_ndv', selectedStatistics: ['meanNdvi', 'totalPlant'], indexName: 'Custom_Index', formula: '(NIR - R) / (NIR + R)' }), null, 2)}\n`;
  writeFileSync(file, text);
  const lines = text.split('\n');
  const where = (needle: string) => {
    const line = lines.findIndex((row) => row.includes(needle));
    return { line, character: lines[line]!.indexOf(needle) };
  };
  return { folder, file, where };
}

describe('reportctl lsp in Neovim', () => {
  testWith('nvim', 'a wrong reportType and a formula error at their line and column; the report types completed; a statistic fixed', async () => {
    const { folder, file, where } = pulledFolder();
    const reportType = where('"vigor_ndv"');
    const answer = (await inNeovim(
      folder,
      file,
      `
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(diagnostics, { line = d.lnum, col = d.col, end_col = d.end_col, message = d.message }) end
  local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = ${reportType.line}, character = ${reportType.character + 2} } }
  local labels = {}
  for _, response in pairs(vim.lsp.buf_request_sync(0, 'textDocument/completion', params, 10000) or {}) do
    for _, item in ipairs(response.result or {}) do table.insert(labels, item.label) end
  end
  local statistic
  for _, d in ipairs(vim.diagnostic.get(0)) do if d.message == 'Invalid selectedStatistics.1' then statistic = d end end
  local range = { start = { line = statistic.lnum, character = statistic.col }, ['end'] = { line = statistic.end_lnum, character = statistic.end_col } }
  local actions = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(0) }, range = range, context = { diagnostics = {} } }, 10000)
  local title
  for _, response in pairs(actions or {}) do
    for _, action in ipairs(response.result or {}) do
      if action.title:find('totalPlants') then title = action.title; vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16') end
    end
  end
  vim.cmd('write')
  finish({ diagnostics = diagnostics, labels = labels, title = title })`,
    )) as { diagnostics: Array<{ line: number; col: number; end_col: number; message: string }>; labels: string[]; title: string };

    const formula = where('(NIR - R) / (NIR + R)');
    const divisor = '(NIR - R) / '.length;
    expect(answer.diagnostics).toEqual(
      expect.arrayContaining([
        { line: reportType.line, col: reportType.character, end_col: reportType.character + '"vigor_ndv"'.length, message: 'Invalid reportType' },
        { line: formula.line, col: formula.character + divisor, end_col: formula.character + '(NIR - R) / (NIR + R)'.length, message: expect.stringMatching(/^formula: the divisor of .* must include eps/) },
      ]),
    );
    expect(answer.labels).toEqual(['plant_count_summary', 'stand_density_map', 'spacing_uniformity', 'vigor_ndvi']);
    expect(answer.title).toBe('Change to "totalPlants"');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ selectedStatistics: ['meanNdvi', 'totalPlants'] });
  }, 90_000);
});
