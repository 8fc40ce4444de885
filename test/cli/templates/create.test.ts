import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerTemplatesCreate } from '../../../src/cli/commands/templates/create.js';
import type { Preset as PresetDoc } from '../../../src/contract/index.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { fullBody, minimalBody, readCatalogs, type Page, type TemplateDoc } from '../../helpers/http.js';
import { inProcessServiceForSuite, runInProcess, scriptedPrompter, type ScriptedAnswer } from '../../helpers/in-process.js';
import { testWith } from '../../helpers/programs.js';
import { Keys, spawnCliInPty } from '../../helpers/pty.js';
import { api } from '../../helpers/server.js';
import { scriptedTemplates } from './support.js';

describe('templates create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesCreate(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'create'], { options: {} }],
      [['templates', 'create', '--file', 'template.json'], { options: { file: 'template.json' } }],
      [['templates', 'create', '-f', '-', '--json'], { options: { file: '-', json: true } }],
      [['templates', 'create', '--from-preset', 'p1', '--name', 'Stand count'], { options: { fromPreset: 'p1', name: 'Stand count' } }],
      [['templates', 'create', '--from-preset'], { usage: /option '--from-preset <id>' argument missing/ }],
      [['templates', 'create', '--preset', 'p1'], { usage: /unknown option '--preset'/ }],
      [['templates', 'create', 'template.json'], { usage: /too many arguments/ }],
    ],
  );
});

// With no flags on a terminal, `templates create` asks. The questions are answered by a
// scripted prompter with the CLI running in this process; two tests drive the built CLI in a
// pseudo-terminal key by key, end to end (the real prompts, and Ctrl-C). Both kinds talk to a
// real embedded service started in this process.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const UUID_LINE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/;

const suite = inProcessServiceForSuite();
const serviceEnv = () => ({ ...suite.env, LANG: 'en_US.UTF-8', LC_ALL: undefined, CI: undefined });

function inPty(args: string[], env: Record<string, string | undefined> = {}) {
  return spawnCliInPty(['templates', ...args], { env: { ...serviceEnv(), ...env } });
}

/** `reportctl templates ARGS` in this process, stdin and stdout a terminal, the questions answered by `script`. */
function withAnswers(args: string[], script: ScriptedAnswer[], env: Record<string, string | undefined> = {}) {
  const prompter = scriptedPrompter(...script);
  const result = runInProcess(['templates', ...args], { env: { ...serviceEnv(), ...env }, tty: { stdin: true, stdout: true }, prompter });
  return { prompter, result };
}

async function templateCount(): Promise<number> {
  const response = await api(suite.server, 'GET', '/api/v2/templates?limit=1', { key: suite.account.apiKey });
  return (response.body as Page<TemplateDoc>).total;
}

const downs = (count: number) => Array.from({ length: count }, () => Keys.down);
describe('templates create on a terminal', () => {
  it('creates a template from a preset with the name typed in (end to end, in a pseudo-terminal)', { timeout: 90_000 }, async () => {
    const presets = (await api(suite.server, 'GET', '/api/v2/templates/presets?limit=100', { key: suite.account.apiKey })).body as Page<PresetDoc>;
    const index = presets.data.findIndex((preset) => preset.id === 'preset-counting-summary');
    expect(index).toBeGreaterThanOrEqual(0);
    const chosen = presets.data[index]!;

    const cli = inPty(['create']);
    try {
      await cli.waitFor('Start from');
      await cli.waitFor(chosen.name); // presets are listed with their names...
      // ...after "From scratch" (the default) and a separator the cursor skips.
      await cli.type(...downs(index + 1));
      await cli.waitFor(chosen.description); // shown for the highlighted preset
      await cli.type(Keys.enter);
      await cli.waitFor('Template name');
      await cli.type('Lot 7 — stand count', Keys.enter);
      await cli.waitFor('"name": "Lot 7 — stand count"'); // the document, shown before asking
      await cli.waitFor('Create this template?');
      await cli.type(Keys.enter); // yes is the default
      const [id] = (await cli.waitFor(UUID)) as unknown as [string];
      expect((await cli.exited).code).toBe(0);

      const stored = await api(suite.server, 'GET', `/api/v2/templates/${id}`, { key: suite.account.apiKey });
      expect(stored.status).toBe(200);
      const template = stored.body as TemplateDoc;
      expect(template.name).toBe('Lot 7 — stand count');
      expect(template.reportType).toBe(chosen.seedPayload.reportType);
      expect(template.selectedStatistics).toEqual(chosen.seedPayload.selectedStatistics);
      expect(template.paperSize).toBe(chosen.seedPayload.paperSize);
    } finally {
      cli.kill();
    }
  });

  it('builds a Custom_Index template from the catalogs, checking the formula as it is typed (labels in Spanish)', async () => {
    const catalogs = await readCatalogs(suite.server, suite.account.apiKey);
    const entries = catalogs.reportTypes.replanting;
    const entry = entries.find((candidate) => candidate.reportCategory === 'vegetation_index')!;
    const firstStatistic = catalogs.statistics.replanting[0]!;
    expect(entry.statistics).not.toContain(firstStatistic);
    // The report type's own statistics (checked when offered) and the first one of the catalog.
    const chosenStatistics = catalogs.statistics.replanting.filter((statistic) => statistic === firstStatistic || entry.statistics.includes(statistic));

    const { prompter, result } = withAnswers(
      ['create'],
      [
        { kind: 'select', message: 'Start from', answer: 'From scratch' },
        { kind: 'select', message: 'Analysis type', answer: 'replanting' },
        // Labels in the user's language, with the key beside them.
        { kind: 'select', message: 'Report type', answer: `${entry.label.es} (${entry.key})` },
        { kind: 'checkbox', message: 'Statistics', answer: chosenStatistics },
        { kind: 'select', message: 'Vegetation index', answer: 'Custom_Index' },
        // A divisor without eps is refused, with the reason and what would do; then retyped.
        { kind: 'input', message: 'Formula', answer: '(1 + L) * (NIR - R) / (NIR + R + L)' },
        { kind: 'input', message: 'Formula', answer: '(1 + L) * (NIR - R) / (NIR + R + L + eps)' },
        { kind: 'number', message: 'soil adjustment', answer: 0.3 }, // the formula uses L, so L is asked for
        { kind: 'select', message: 'Paper size', answer: 'a4' },
        { kind: 'input', message: 'Template name', answer: 'Zonas de resiembra SAVI' },
        { kind: 'confirm', message: 'Create this template?', answer: true },
      ],
      { LANG: 'es_AR.UTF-8' },
    );
    const { code, stdout, stderr } = await result;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(UUID_LINE);

    const asked = (message: string) => prompter.asked.find((question) => question.message.includes(message))!;
    const offered = asked('Statistics').question.choices as Array<{ value: string; checked?: boolean }>;
    expect(offered.filter((choice) => choice.checked).map((choice) => choice.value)).toEqual(catalogs.statistics.replanting.filter((statistic) => entry.statistics.includes(statistic)));
    expect(asked('Formula').refused).toHaveLength(1);
    expect(asked('Formula').refused[0]).toMatch(/must include eps.*add eps to the divisor/);
    expect(asked('Paper size').question.default).toBe(catalogs.viDefaults.defaults.paperSize);
    // The document is shown before the last question.
    expect(stderr).toContain('"formula": "(1 + L) * (NIR - R) / (NIR + R + L + eps)"');

    const template = (await api(suite.server, 'GET', `/api/v2/templates/${stdout.trim()}`, { key: suite.account.apiKey })).body as TemplateDoc;
    expect(template).toMatchObject({
      name: 'Zonas de resiembra SAVI',
      analysisType: 'replanting',
      reportType: entry.key,
      reportTypeId: entry.id,
      reportCategory: 'vegetation_index',
      indexName: 'Custom_Index',
      formula: '(1 + L) * (NIR - R) / (NIR + R + L + eps)',
      saviL: 0.3,
      paperSize: 'a4',
      mapResolution: catalogs.viDefaults.defaults.mapResolution,
    });
    expect(template.selectedStatistics).toEqual(chosenStatistics);
  });

  it('creates nothing when the answer to "Create this template?" is no', async () => {
    const before = await templateCount();
    const presets = (await api(suite.server, 'GET', '/api/v2/templates/presets?limit=100', { key: suite.account.apiKey })).body as Page<PresetDoc>;
    const first = presets.data[0]!;
    const { prompter, result } = withAnswers(
      ['create'],
      [
        { kind: 'select', message: 'Start from', answer: `(${first.id})` },
        { kind: 'input', message: 'Template name', answer: (question: { default?: string }) => question.default }, // the offered default
        { kind: 'confirm', message: 'Create this template?', answer: false },
      ],
    );
    const { code, stdout, stderr } = await result;
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('nothing created');
    // The preset's own name is offered as the default.
    expect(prompter.asked.find((question) => question.message === 'Template name')!.question.default).toBe(first.name);
    expect(await templateCount()).toBe(before);
  });

  it('exits 130 on Ctrl-C at a prompt, creating nothing (end to end, in a pseudo-terminal)', { timeout: 90_000 }, async () => {
    const before = await templateCount();
    const cli = inPty(['create']);
    try {
      await cli.waitFor('Start from');
      await cli.type(Keys.enter);
      await cli.waitFor('Analysis type');
      await cli.type(Keys.ctrlC);
      expect((await cli.exited).code).toBe(130);
      expect(cli.transcript()).not.toMatch(/unexpected error/);
      expect(cli.transcript()).toMatch(/reportctl: cancelled\n$/);
    } finally {
      cli.kill();
    }
    expect(await templateCount()).toBe(before);
  });
  testWith(
    'tmux',
    'Ctrl-C at a menu erases that menu, keeps the answers above it and says "cancelled"',
    async () => {
      const cli = inPty(['create']);
      try {
        await cli.waitFor('Start from');
        await cli.type(Keys.enter);
        await cli.waitFor('Analysis type');
        const open = cli.screen().split('\n');
        const answered = open[0]!;
        expect(answered).toMatch(/Start from/);
        expect(open.slice(1).join('\n')).toMatch(/Analysis type/);
        await cli.type(Keys.ctrlC);
        expect((await cli.exited).code).toBe(130);
        expect(cli.screen()).toBe(`${answered}\nreportctl: cancelled`);
      } finally {
        cli.kill();
      }
    },
    90_000,
  );
});

describe('other prompts on a terminal', () => {
  it('--no-input and CI=true never prompt, even on a terminal: exit 2 naming the flags', async () => {
    for (const [args, env] of [
      [['create', '--no-input'], {}],
      [['create'], { CI: 'true' }],
    ] as const) {
      // No scripted answers: any question fails the test.
      const { result } = withAnswers([...args], [], env);
      const { code, stderr } = await result;
      expect(code).toBe(2);
      expect(stderr).toMatch(/--file/);
      expect(stderr).toMatch(/--from-preset/);
      expect(stderr).not.toMatch(/Start from|unexpected/);
    }
  });

  it('--from-preset without --name asks for the name', async () => {
    const { result } = withAnswers(['create', '--from-preset', 'preset-path-coverage'], [{ kind: 'input', message: 'Template name', answer: 'North field paths' }]);
    const { code, stdout, stderr } = await result;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(UUID_LINE);
    const template = (await api(suite.server, 'GET', `/api/v2/templates/${stdout.trim()}`, { key: suite.account.apiKey })).body as TemplateDoc;
    expect(template).toMatchObject({ name: 'North field paths', reportType: 'path_coverage' });
  });
});

describe('templates create --from-preset', () => {
  const { catalogs, cli, getTemplate, jsonFile, templateTotal } = scriptedTemplates(suite);

  it('creates a template from a preset and prints only its id', async () => {
    const result = await cli(suite.account, ['create', '--from-preset', 'preset-counting-summary', '--name', 'Lot 7 — stand count']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(UUID_LINE);
    const { status, template } = await getTemplate(suite.account, result.stdout.trim());
    expect(status).toBe(200);
    expect(template.name).toBe('Lot 7 — stand count');
    expect(template.reportType).toBe('plant_count_summary');
  });

  it('--from-preset without --name and without a terminal is a usage error naming --name', async () => {
    const before = await templateTotal(suite.account);
    const result = await cli(suite.account, ['create', '--from-preset', 'preset-counting-summary']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--name');
    expect(await templateTotal(suite.account)).toBe(before);
  });

  it('an unknown preset is exit 4 with a did-you-mean hint', async () => {
    const result = await cli(suite.account, ['create', '--from-preset', 'preset-counting-sumary', '--name', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('did you mean preset-counting-summary?');
  });

  it('--file and --from-preset together are a usage error', async () => {
    const file = jsonFile('both.json', minimalBody(catalogs()));
    const result = await cli(suite.account, ['create', '--file', file, '--from-preset', 'preset-counting-summary', '--name', 'x']);
    expect(result.code).toBe(2);
  });
});

describe('templates create --file', () => {
  const { catalogs, cli, files, getTemplate, jsonFile, templateTotal } = scriptedTemplates(suite);

  it('creates the template in the file', async () => {
    const body = fullBody(catalogs(), 'from a file');
    const result = await cli(suite.account, ['create', '--file', jsonFile('valid.json', body)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(UUID_LINE);
    const { template } = await getTemplate(suite.account, result.stdout.trim());
    expect(template).toMatchObject(body);
  });

  it('reads the document from stdin with --file -', async () => {
    const body = minimalBody(catalogs(), { name: 'from stdin' });
    const result = await cli(suite.account, ['create', '--file', '-', '--json'], {}, { input: JSON.stringify(body) });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(body);
  });

  it('a number sent as text fails the local check: exit 1, nothing created, the field explained', async () => {
    const before = await templateTotal(suite.account);
    const body = { ...minimalBody(catalogs(), { name: 'text number' }), mapResolution: '150' };
    const result = await cli(suite.account, ['create', '--file', jsonFile('text-number.json', body), '--verbose']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('mapResolution');
    expect(result.stderr).toMatch(/must be a (JSON )?number/);
    expect(result.stderr).toMatch(/nothing was sent/);
    // --verbose traces every request: none of them is the POST.
    expect(result.stderr).not.toMatch(/^> POST /m);
    expect(await templateTotal(suite.account)).toBe(before);
  });

  it('a duplicate statistic, a control character in the name and an unknown field are refused locally, each named', async () => {
    const before = await templateTotal(suite.account);
    const statistic = catalogs().statistics.counting[0]!;
    const body = { ...minimalBody(catalogs()), name: 'bell\u0007name', selectedStatistics: [statistic, statistic], colour: 'red' };
    const result = await cli(suite.account, ['create', '--file', jsonFile('local-issues.json', body), '--verbose']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('is not a valid template (checked locally; nothing was sent)');
    expect(result.stderr).toMatch(/^ {2}name: must not contain control characters$/m);
    expect(result.stderr).toContain(`\n  selectedStatistics.1: duplicate statistic ${statistic}\n`);
    // The hint fits the problem: no "not a counting statistic (did you mean <the same>?)".
    expect(result.stderr).toContain(`hint: selectedStatistics.1: \`${statistic}\` is listed twice in selectedStatistics; remove one`);
    expect(result.stderr).not.toContain(`did you mean ${statistic}?`);
    expect(result.stderr).toContain('colour: Unknown field colour');
    expect(result.stderr).not.toMatch(/^> POST /m);
    expect(await templateTotal(suite.account)).toBe(before);
  });

  it('a report type not in the catalog comes back from the service and is explained with the catalogs()', async () => {
    const before = await templateTotal(suite.account);
    const body = { ...minimalBody(catalogs(), { name: 'typo' }), reportType: 'plant_count' };
    const result = await cli(suite.account, ['create', '--file', jsonFile('report-type.json', body)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/service rejected/);
    for (const entry of catalogs().reportTypes.counting) expect(result.stderr).toContain(entry.key);
    expect(result.stderr).toContain('did you mean plant_count_summary?');
    expect(await templateTotal(suite.account)).toBe(before);
  });

  it('an unknown statistic is answered with the valid statistics', async () => {
    const body = { ...minimalBody(catalogs(), { name: 'stat typo' }), selectedStatistics: ['totalPlants', 'plantsPerHectar'] };
    const result = await cli(suite.account, ['create', '--file', jsonFile('statistic.json', body)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('selectedStatistics.1');
    for (const statistic of catalogs().statistics.counting) expect(result.stderr).toContain(statistic);
    expect(result.stderr).toContain('did you mean plantsPerHectare?');
  });

  it('a malformed JSON file is a usage error', async () => {
    const result = await cli(suite.account, ['create', '--file', jsonFile('malformed.json', '{"name": "x",')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not valid JSON/);
  });

  it('a missing file is a usage error', async () => {
    const result = await cli(suite.account, ['create', '--file', join(files, 'does-not-exist.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ENOENT|cannot read/);
  });

  it('with no flags and no terminal, it names the flags it needs (also with --no-input and CI=true)', async () => {
    for (const [args, env] of [
      [['create'], {}],
      [['create', '--no-input'], {}],
      [['create'], { CI: 'true' }],
    ] as const) {
      const result = await cli(suite.account, [...args], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--file');
      expect(result.stderr).toContain('--from-preset');
    }
  });
});
