// `templates create` with no flags on a terminal: the built CLI in a pseudo-terminal, driven
// key by key against a real embedded service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startServe, type IssuedKey, type TestServer } from '../helpers/server.js';
import { readCatalogs, type CatalogsOverHttp, type Page, type TemplateDoc } from '../helpers/http.js';
import { Keys, spawnCliInPty } from '../helpers/pty.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

interface PresetDoc {
  id: string;
  name: string;
  description: string;
  seedPayload: Record<string, unknown>;
}

let server: TestServer;
let account: IssuedKey;
let catalogs: CatalogsOverHttp;

beforeAll(async () => {
  server = await startServe();
  account = await server.newAccount();
  catalogs = await readCatalogs(server, account.apiKey);
});

afterAll(async () => {
  await server?.stop();
});

function inPty(args: string[], env: Record<string, string | undefined> = {}) {
  return spawnCliInPty(['templates', ...args], {
    env: { REPORTCTL_BASE_URL: server.url, REPORTCTL_API_KEY: account.apiKey, LANG: 'en_US.UTF-8', LC_ALL: undefined, CI: undefined, ...env },
  });
}

const wizard = (env: Record<string, string> = {}) => inPty(['create'], env);

async function templateCount(): Promise<number> {
  const response = await api(server, 'GET', '/api/v2/templates?limit=1', { key: account.apiKey });
  return (response.body as Page<TemplateDoc>).total;
}

const downs = (count: number) => Array.from({ length: count }, () => Keys.down);

describe('templates create on a terminal', () => {
  it('creates a template from a preset with the name typed in', { timeout: 90_000 }, async () => {
    const presets = (await api(server, 'GET', '/api/v2/templates/presets?limit=100', { key: account.apiKey })).body as Page<PresetDoc>;
    const index = presets.data.findIndex((preset) => preset.id === 'preset-counting-summary');
    expect(index).toBeGreaterThanOrEqual(0);
    const chosen = presets.data[index]!;

    const cli = wizard();
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

      const stored = await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey });
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

  it(
    'builds a Custom_Index template from the catalogs, checking the formula as it is typed (labels in Spanish)',
    { timeout: 120_000 },
    async () => {
      const analysisTypes = ['counting', 'replanting', 'path'] as const;
      const entries = catalogs.reportTypes.replanting;
      const entryIndex = entries.findIndex((entry) => entry.reportCategory === 'vegetation_index');
      const entry = entries[entryIndex]!;
      const customIndex = catalogs.viDefaults.indexNames.indexOf('Custom_Index');
      const firstStatistic = catalogs.statistics.replanting[0]!;
      expect(entry.statistics).not.toContain(firstStatistic);

      const cli = wizard({ LANG: 'es_AR.UTF-8' });
      try {
        await cli.waitFor('Start from');
        await cli.type(Keys.enter); // From scratch
        await cli.waitFor('Analysis type');
        await cli.type(...downs(analysisTypes.indexOf('replanting')), Keys.enter);
        await cli.waitFor('Report type');
        // Labels in the user's language, with the key beside them.
        await cli.waitFor(`${entry.label.es} (${entry.key})`);
        await cli.type(...downs(entryIndex), Keys.enter);
        await cli.waitFor('Statistics');
        // The report type's own statistics come checked; add the first one of the catalog.
        await cli.type(Keys.space, Keys.enter);
        await cli.waitFor('Vegetation index');
        await cli.type(...downs(customIndex), Keys.enter);
        await cli.waitFor('Formula');
        // A divisor without eps is refused on Enter, with the reason and what would do.
        await cli.type('(1 + L) * (NIR - R) / (NIR + R + L)', Keys.enter);
        await cli.waitFor(/must include eps.*add eps to the divisor/);
        await cli.type(Keys.backspace, ' + eps)', Keys.enter);
        await cli.waitFor('soil adjustment'); // the formula uses L, so L is asked for
        await cli.type('0.3', Keys.enter);
        await cli.waitFor('Paper size');
        await cli.type(Keys.down, Keys.down, Keys.enter); // letter (the default) → legal → a4
        await cli.waitFor('Template name');
        await cli.type('Zonas de resiembra SAVI', Keys.enter);
        await cli.waitFor('"formula": "(1 + L) * (NIR - R) / (NIR + R + L + eps)"');
        await cli.waitFor('Create this template?');
        await cli.type('y', Keys.enter);
        const [id] = (await cli.waitFor(UUID)) as unknown as [string];
        expect((await cli.exited).code).toBe(0);

        const template = (await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey })).body as TemplateDoc;
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
        expect(template.selectedStatistics).toEqual(
          catalogs.statistics.replanting.filter((statistic) => statistic === firstStatistic || entry.statistics.includes(statistic)),
        );
      } finally {
        cli.kill();
      }
    },
  );

  it('creates nothing when the answer to "Create this template?" is no', { timeout: 90_000 }, async () => {
    const before = await templateCount();
    const cli = wizard();
    try {
      await cli.waitFor('Start from');
      await cli.type(Keys.down, Keys.enter); // the first preset
      await cli.waitFor('Template name');
      await cli.type(Keys.enter); // the preset's own name, offered as the default
      await cli.waitFor('Create this template?');
      await cli.type('n', Keys.enter);
      await cli.waitFor('nothing created');
      expect((await cli.exited).code).toBe(0);
    } finally {
      cli.kill();
    }
    expect(await templateCount()).toBe(before);
  });

  it('exits 130 on Ctrl-C at a prompt, creating nothing', { timeout: 90_000 }, async () => {
    const before = await templateCount();
    const cli = wizard();
    try {
      await cli.waitFor('Start from');
      await cli.type(Keys.enter);
      await cli.waitFor('Analysis type');
      await cli.type(Keys.ctrlC);
      expect((await cli.exited).code).toBe(130);
      expect(cli.transcript()).not.toMatch(/unexpected error/);
    } finally {
      cli.kill();
    }
    expect(await templateCount()).toBe(before);
  });
});

describe('other prompts on a terminal', () => {
  it('--no-input and CI=true never prompt, even on a terminal: exit 2 naming the flags', { timeout: 60_000 }, async () => {
    for (const [args, env] of [
      [['create', '--no-input'], {}],
      [['create'], { CI: 'true' }],
    ] as const) {
      const cli = inPty([...args], env);
      try {
        expect((await cli.exited).code).toBe(2);
        expect(cli.transcript()).toMatch(/--file/);
        expect(cli.transcript()).toMatch(/--from-preset/);
        expect(cli.transcript()).not.toMatch(/Start from/);
      } finally {
        cli.kill();
      }
    }
  });

  it('--from-preset without --name asks for the name', { timeout: 60_000 }, async () => {
    const cli = inPty(['create', '--from-preset', 'preset-path-coverage']);
    try {
      await cli.waitFor('Template name');
      await cli.type('North field paths', Keys.enter);
      const [id] = (await cli.waitFor(UUID)) as unknown as [string];
      expect((await cli.exited).code).toBe(0);
      const template = (await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey })).body as TemplateDoc;
      expect(template).toMatchObject({ name: 'North field paths', reportType: 'path_coverage' });
    } finally {
      cli.kill();
    }
  });

  it('delete asks first, and "no" (the default) keeps the template', { timeout: 60_000 }, async () => {
    const created = await api(server, 'POST', '/api/v2/templates', {
      key: account.apiKey,
      body: { name: 'keep me', analysisType: 'counting', reportType: catalogs.reportTypes.counting[0]!.key, reportTypeId: catalogs.reportTypes.counting[0]!.id, reportCategory: catalogs.reportTypes.counting[0]!.reportCategory },
    });
    const id = (created.body as TemplateDoc).id;
    const cli = inPty(['delete', id]);
    try {
      await cli.waitFor(`Delete template "keep me" (${id.slice(0, 8)})?`);
      await cli.type(Keys.enter);
      await cli.waitFor('not deleted');
      expect((await cli.exited).code).toBe(0);
    } finally {
      cli.kill();
    }
    expect((await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey })).status).toBe(200);

    const sure = inPty(['delete', id]);
    try {
      await sure.waitFor(`Delete template "keep me" (${id.slice(0, 8)})?`);
      await sure.type('y', Keys.enter);
      await sure.waitFor(`deleted template ${id}`);
      expect((await sure.exited).code).toBe(0);
    } finally {
      sure.kill();
    }
    expect((await api(server, 'GET', `/api/v2/templates/${id}`, { key: account.apiKey })).status).toBe(404);
  });
});
