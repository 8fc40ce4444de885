import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Catalogs, Preset, QueueRun, Template, TemplateBody } from '../../src/contract/index.js';
import { presets as defaultPresets } from '../../src/contract/default-catalogs.js';
import { buildApp } from '../../src/server/app.js';
import { openStore } from '../../src/server/open-store.js';
import { createStore, openDatabase, type IssuedKey, type Store, type StoreOptions } from '../../src/server/store/index.js';
import { sqliteDriver } from '../../src/server/store/driver.js';

/** What the store's tests (test/server/store/) share: database files in a fresh folder per test, and small documents. */

export interface StoreFiles {
  /** The test's folder, new for each test. */
  dir(): string;
  /** A database file in it. */
  dbFile(name?: string): string;
  /** A store over a file of it (a new database by default), closed after the test. */
  open(file?: string, options?: StoreOptions): Store;
  /** The file opened with the driver alone, no migration, closed after the test. */
  raw(file: string): BetterSqlite3.Database;
}

/** Registers, in the calling test file, a fresh folder for each test and the closing of what it opened. */
export function storeFiles(): StoreFiles {
  let dir = '';
  const opened: BetterSqlite3.Database[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reportctl-store-'));
  });
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const dbFile = (name = 'store.db') => path.join(dir, name);
  return {
    dir: () => dir,
    dbFile,
    open(file = dbFile(), options: StoreOptions = {}): Store {
      const db = openDatabase(file);
      opened.push(db);
      return createStore(db, options);
    },
    raw(file: string): BetterSqlite3.Database {
      const db = new (sqliteDriver().Database)(file);
      opened.push(db);
      return db;
    },
  };
}

/** A store with an account and a queue of three steps. */
export function withQueue(files: StoreFiles, options: StoreOptions = {}) {
  const store = files.open(files.dbFile(), options);
  const { accountId } = store.accounts.create();
  const queue = store.queues.create(accountId, {
    name: 'Emergence',
    steps: [
      { lotId: 'lot-1', analysisType: 'counting' },
      { lotId: 'lot-2', analysisType: 'counting' },
      { lotId: 'lot-3', analysisType: 'replanting' },
    ],
  });
  return { store, accountId, queue };
}

/** A clock that stays on one millisecond unless moved: every row gets the same timestamp. */
export function fixedClock(iso = '2025-03-01T12:00:00.000Z') {
  let current = new Date(iso);
  return {
    now: () => new Date(current),
    set: (next: string) => {
      current = new Date(next);
    },
  };
}

// Small inline catalogs: the store stores documents, it does not interpret them.
export const catalogs: Catalogs = {
  reportTypes: {
    counting: [
      {
        id: '00000000-0000-4000-8000-000000000001',
        key: 'plant_count',
        label: { en: 'Plant count', es: 'Conteo' },
        statistics: ['totalPlants'],
        reportCategory: 'general',
      },
    ],
    replanting: [],
    path: [],
  },
  statistics: { counting: ['totalPlants'], replanting: ['gaps'], path: ['coverage'] },
  vegetationIndexDefaults: {
    indexNames: ['NDVI', 'Custom_Index'],
    colorScales: {
      NDVI: {
        stops: [
          { value: 0, color: '#d73027' },
          { value: 1, color: '#1a9850' },
        ],
      },
    },
    accentColors: { NDVI: '#1a9850' },
    layouts: { portrait: { elements: [] }, landscape: { elements: [] } },
    defaults: { paperSize: 'letter', mapResolution: 150, margins: { top: 2, right: 2, bottom: 2, left: 2 }, saviL: 0.5 },
    customFormula: {
      allowedBands: ['R', 'G', 'B', 'RE', 'NIR'],
      allowedScalars: ['eps', 'L'],
      allowedFunctions: ['sqrt', 'abs'],
      rules: { divisionRequiresEps: true },
    },
  },
};

export const presets: Preset[] = ['b', 'a', 'c'].map((letter) => ({
  id: `preset-${letter}`,
  name: `Preset ${letter}`,
  description: 'A starter template',
  analysisType: 'counting',
  reportCategory: 'general',
  seedPayload: { name: `Preset ${letter}` },
}));

export function body(overrides: Partial<TemplateBody> = {}): TemplateBody {
  return {
    name: 'Stand count',
    analysisType: 'counting',
    reportType: 'plant_count',
    reportTypeId: '00000000-0000-4000-8000-000000000001',
    reportCategory: 'general',
    selectedStatistics: ['totalPlants'],
    paperSize: 'letter',
    mapResolution: 150,
    margins: { top: 2, right: 2, bottom: 2, left: 2 },
    ...overrides,
  };
}

export function created(result: Template | { limitExceeded: true; limit: number }): Template {
  if ('limitExceeded' in result) throw new Error('unexpected limitExceeded');
  return result;
}

export function asRun(result: QueueRun | { error: 'finished' } | null): QueueRun {
  if (result === null || 'error' in result) throw new Error(`expected a run, got ${JSON.stringify(result)}`);
  return result;
}

export const bytesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0));

export interface StoreFileService {
  /** The database file of the running test. */
  file(): string;
  /** A second connection to the same file, as another part of the service or an admin command would have; closed after the test. */
  otherConnection(): Store;
}

/**
 * Registers, in the calling test file, a store over a fresh database file for each test and
 * the service's app over it (built, not listening), handed to `opened` before each test and
 * closed after it, with every other connection opened meanwhile.
 */
export function storeFileService(opened: (service: { store: Store; app: FastifyInstance }) => void): StoreFileService {
  let dir = '';
  let file = '';
  let current: { store: Store; app: FastifyInstance } | undefined;
  const others: Store[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reportctl-store-'));
    file = path.join(dir, 'service.db');
    const store = openStore(file);
    current = { store, app: buildApp({ store, readsPerMinute: 100_000, writesPerMinute: 100_000 }) };
    opened(current);
  });
  afterEach(async () => {
    await current?.app.close();
    for (const other of others.splice(0)) other.close();
    current?.store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    file: () => file,
    otherConnection(): Store {
      const other = openStore(file);
      others.push(other);
      return other;
    },
  };
}

/** A template body from the first preset, named. */
export const presetBody = (name: string) => ({ ...defaultPresets[0]!.seedPayload, name });

/** POST /api/v2/templates through `app` (inject): the new template's id. */
export async function createThrough(app: FastifyInstance, key: IssuedKey, name: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/v2/templates', headers: { apiKey: key.apiKey }, payload: presetBody(name) });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

/** GET /api/v2/templates through `app` (inject): the page, its names and headers. */
export async function listThrough(app: FastifyInstance, key: IssuedKey, query = 'limit=20') {
  const response = await app.inject({ method: 'GET', url: `/api/v2/templates?${query}`, headers: { apiKey: key.apiKey } });
  expect(response.statusCode, response.body).toBe(200);
  const page = response.json() as { total: number; data: Array<{ id: string; name: string }> };
  return { ...page, names: page.data.map((template) => template.name), headers: response.headers };
}
