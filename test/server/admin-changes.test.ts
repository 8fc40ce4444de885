// Across modules: what `reportctl admin` changes on the database (queues, runs, keys) the API shows on the very next request.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Analysis, Queue, QueueRun } from '../../src/contract/index.js';
import { api, type IssuedKey } from '../helpers/server.js';
import { inProcessServiceForSuite } from '../helpers/in-process.js';
import { ISO_MS, expectError, listAll, type Page } from '../helpers/http.js';

/**
 * Queues and runs are driven by `reportctl admin` (in this process) on the database file while
 * the server runs; every change must be visible through the HTTP API on the very next request
 * (docs/decisions.md: "Queues, runs and analyses", "The embedded service").
 */

const suite = inProcessServiceForSuite();

/** A queue with two steps on lots unique to the caller. */
async function newQueue(name: string): Promise<{ queue: Queue; lot1: string; lot2: string }> {
  const suffix = randomUUID().slice(0, 8);
  const lot1 = `lot-1-${suffix}`;
  const lot2 = `lot-2-${suffix}`;
  const queue = await suite.server.admin<Queue>(
    'queues', 'create', '--account', suite.account.accountId, '--name', name, '--step', `${lot1}:counting`, '--step', `${lot2}:replanting`,
  );
  return { queue, lot1, lot2 };
}

/** The run as the API shows it right now. */
async function runOverHttp(id: string): Promise<QueueRun> {
  const runs = await listAll<QueueRun>(suite.server, suite.account.apiKey, '/api/v2/queue-runs');
  const run = runs.find((candidate) => candidate.id === id);
  expect(run, `run ${id} in GET /api/v2/queue-runs`).toBeDefined();
  return run!;
}

async function analysesOf(lotId: string): Promise<Analysis[]> {
  const response = await api(suite.server, 'GET', `/api/v2/analyses?lotId=${encodeURIComponent(lotId)}`, { key: suite.account.apiKey });
  expect(response.status).toBe(200);
  return (response.body as Page<Analysis>).data;
}

/** Advances until the run finishes; the statuses the API showed after each step, deduplicated. */
async function driveToEnd(run: QueueRun): Promise<{ final: QueueRun; seen: string[] }> {
  const seen = [(await runOverHttp(run.id)).status];
  let current = run;
  for (let i = 0; i < 10 && !['completed', 'failed', 'cancelled'].includes(current.status); i++) {
    const printed = await suite.server.admin<QueueRun>('queue-runs', 'advance', current.id);
    current = await runOverHttp(run.id);
    // The admin prints the run in the API's own shape, and the server already shows it.
    expect(current).toEqual(printed);
    if (seen[seen.length - 1] !== current.status) seen.push(current.status);
  }
  return { final: current, seen };
}

describe('queues created by admin', () => {
  it('appear in GET /api/v2/queues on the next request, in the API shape admin printed', async () => {
    const { queue, lot1, lot2 } = await newQueue('North lots');
    expect(queue.steps).toEqual([
      { order: 1, lotId: lot1, analysisType: 'counting' },
      { order: 2, lotId: lot2, analysisType: 'replanting' },
    ]);
    expect(queue.createdAt).toMatch(ISO_MS);
    const queues = await listAll<Queue>(suite.server, suite.account.apiKey, '/api/v2/queues');
    expect(queues[0]).toEqual(queue);
  });
});

describe('queue-run life cycle', () => {
  it('pending → claimed → running → completed; each finished step has its analysis', async () => {
    const { queue, lot1, lot2 } = await newQueue('to complete');
    const enqueued = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id);
    expect(enqueued).toMatchObject({ queueId: queue.id, status: 'pending', startedAt: null, finishedAt: null });
    expect(enqueued.steps.map((step) => [step.order, step.lotId, step.analysisType, step.status])).toEqual([
      [1, lot1, 'counting', 'pending'],
      [2, lot2, 'replanting', 'pending'],
    ]);
    expect(await runOverHttp(enqueued.id)).toEqual(enqueued);
    // An unfinished step has no analysisId or finishedAt at all: the specification types both as strings.
    const pendingSteps = (await runOverHttp(enqueued.id)).steps;
    expect(pendingSteps.map((step) => Object.keys(step).sort())).toEqual([
      ['analysisType', 'lotId', 'order', 'status'],
      ['analysisType', 'lotId', 'order', 'status'],
    ]);
    const pendingNow = await api(suite.server, 'GET', '/api/v2/queue-runs?status=pending', { key: suite.account.apiKey });
    expect((pendingNow.body as Page<QueueRun>).data.map((run) => run.id)).toContain(enqueued.id);

    const { final, seen } = await driveToEnd(enqueued);
    expect(seen).toEqual(['pending', 'claimed', 'running', 'completed']);
    expect(final.startedAt).toMatch(ISO_MS);
    expect(final.finishedAt).toMatch(ISO_MS);
    expect(final.createdAt <= final.startedAt!).toBe(true);
    expect(final.startedAt! <= final.finishedAt!).toBe(true);
    for (const step of final.steps) {
      expect(step.status).toBe('completed');
      expect(typeof step.analysisId).toBe('string');
      expect(step.finishedAt).toMatch(ISO_MS);
      expect(step.finishedAt! >= final.startedAt!).toBe(true);
      expect(step.finishedAt! <= final.finishedAt!).toBe(true);
    }
    expect(final.steps[0]!.finishedAt! <= final.steps[1]!.finishedAt!).toBe(true);

    // Each step's analysis is in GET /api/v2/analyses, found by its lot.
    const [first, second] = await Promise.all([analysesOf(lot1), analysesOf(lot2)]);
    expect(first.map((analysis) => analysis.id)).toEqual([final.steps[0]!.analysisId]);
    expect(first[0]).toMatchObject({ lotId: lot1, analysisType: 'counting', status: 'completed' });
    expect(second.map((analysis) => analysis.id)).toEqual([final.steps[1]!.analysisId]);
    expect(second[0]).toMatchObject({ lotId: lot2, analysisType: 'replanting', status: 'completed' });
    const combined = await api(suite.server, 'GET', `/api/v2/analyses?lotId=${lot1}&analysisType=replanting`, { key: suite.account.apiKey });
    expect((combined.body as Page<Analysis>).total).toBe(0);

    const completed = await api(suite.server, 'GET', '/api/v2/queue-runs?status=completed', { key: suite.account.apiKey });
    expect((completed.body as Page<QueueRun>).data.map((run) => run.id)).toContain(final.id);
  });

  it('a step shows running while the run runs, one step at a time', async () => {
    const { queue } = await newQueue('watch steps');
    const run = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id, '--name', 'stepwise', '--estimated-ha', '12.5');
    expect(run).toMatchObject({ name: 'stepwise', estimatedHa: 12.5 });
    const stepStatuses: string[][] = [];
    for (let i = 0; i < 4; i++) {
      await suite.server.admin('queue-runs', 'advance', run.id);
      const now = await runOverHttp(run.id);
      stepStatuses.push([now.status, ...now.steps.map((step) => step.status)]);
    }
    expect(stepStatuses).toEqual([
      ['claimed', 'pending', 'pending'],
      ['running', 'running', 'pending'],
      ['running', 'completed', 'running'],
      ['completed', 'completed', 'completed'],
    ]);
  });

  it('--fail-at-step 1: the run fails, the failed step has its analysis, later steps are skipped', async () => {
    const { queue, lot1, lot2 } = await newQueue('to fail');
    const run = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id, '--fail-at-step', '1');
    const { final, seen } = await driveToEnd(run);
    expect(seen).toEqual(['pending', 'claimed', 'running', 'failed']);
    expect(final.finishedAt).toMatch(ISO_MS);
    expect(final.startedAt).toMatch(ISO_MS);
    const [failedStep, laterStep] = final.steps;
    expect(failedStep!.status).toBe('failed');
    expect(typeof failedStep!.analysisId).toBe('string');
    expect(failedStep!.finishedAt).toMatch(ISO_MS);
    expect(laterStep!.status).toBe('skipped');
    expect(laterStep!.analysisId ?? null).toBeNull();

    const analyses = await analysesOf(lot1);
    expect(analyses.map((analysis) => analysis.id)).toEqual([failedStep!.analysisId]);
    expect(analyses[0]!.status).toBe('failed');
    expect(await analysesOf(lot2)).toEqual([]);
    const failedRuns = await api(suite.server, 'GET', '/api/v2/queue-runs?status=failed', { key: suite.account.apiKey });
    expect((failedRuns.body as Page<QueueRun>).data.map((r) => r.id)).toContain(final.id);
  });

  it('cancelling a pending run makes it cancelled; a running one keeps what it finished', async () => {
    const { queue, lot1 } = await newQueue('to cancel');
    const pending = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id);
    const printed = await suite.server.admin<QueueRun>('queue-runs', 'cancel', pending.id);
    const cancelled = await runOverHttp(pending.id);
    expect(cancelled).toEqual(printed);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.finishedAt).toMatch(ISO_MS);
    for (const step of cancelled.steps) {
      expect(['pending', 'running', 'completed']).not.toContain(step.status);
      expect(step.analysisId ?? null).toBeNull();
    }
    const cancelledRuns = await api(suite.server, 'GET', '/api/v2/queue-runs?status=cancelled', { key: suite.account.apiKey });
    expect((cancelledRuns.body as Page<QueueRun>).data.map((run) => run.id)).toContain(pending.id);

    const running = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id);
    for (let i = 0; i < 3; i++) await suite.server.admin('queue-runs', 'advance', running.id);
    await suite.server.admin('queue-runs', 'cancel', running.id);
    const stopped = await runOverHttp(running.id);
    expect(stopped.status).toBe('cancelled');
    expect(stopped.steps[0]).toMatchObject({ status: 'completed', finishedAt: expect.stringMatching(ISO_MS) });
    expect(stopped.steps[1]!.status).not.toMatch(/^(pending|running|completed)$/);
    expect((await analysesOf(lot1)).map((analysis) => analysis.id)).toEqual([stopped.steps[0]!.analysisId]);
  });

  it('advancing or cancelling a finished run fails with a non-zero exit and changes nothing', async () => {
    const { queue } = await newQueue('finished');
    const run = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id);
    const { final } = await driveToEnd(run);
    expect(final.status).toBe('completed');
    const advanced = await suite.server.adminResult('queue-runs', 'advance', run.id);
    expect(advanced.code).not.toBe(0);
    expect(advanced.stdout).toBe('');
    expect(advanced.stderr).not.toBe('');
    const cancelled = await suite.server.adminResult('queue-runs', 'cancel', run.id);
    expect(cancelled.code).not.toBe(0);
    expect(await runOverHttp(run.id)).toEqual(final);

    const other = await suite.server.admin<QueueRun>('queue-runs', 'enqueue', '--queue', queue.id);
    await suite.server.admin('queue-runs', 'cancel', other.id);
    expect((await suite.server.adminResult('queue-runs', 'advance', other.id)).code).not.toBe(0);
    expect((await suite.server.adminResult('queue-runs', 'advance', 'no-such-run')).code).not.toBe(0);
  });
});

describe('keys changed by admin', () => {
  it('a revoked key is refused on the very next request; the account’s other keys still work', async () => {
    const extra = await suite.server.admin<IssuedKey>('keys', 'create', '--account', suite.account.accountId);
    expect(extra.accountId).toBe(suite.account.accountId);
    expect((await api(suite.server, 'GET', '/api/v2/queues', { key: extra.apiKey })).status).toBe(200);
    await suite.server.admin('keys', 'revoke', extra.apiKey);
    expectError(await api(suite.server, 'GET', '/api/v2/queues', { key: extra.apiKey }), 401, 'API_KEY_INVALID');
    expectError(await api(suite.server, 'GET', '/api/v2/queues', { headers: { Authorization: `Bearer ${extra.apiKey}` } }), 401, 'API_KEY_INVALID');
    expect((await api(suite.server, 'GET', '/api/v2/queues', { key: suite.account.apiKey })).status).toBe(200);
    // Revoking twice is an error for the admin, not a silent success.
    expect((await suite.server.adminResult('keys', 'revoke', extra.apiKey)).code).not.toBe(0);
  });

  it('a new sub-user key works on the very next request and sees the account', async () => {
    const sub = await suite.server.admin<IssuedKey>('keys', 'create', '--account', suite.account.accountId, '--sub-user', 'night-shift');
    const asSub = await api(suite.server, 'GET', '/api/v2/queue-runs?limit=100', { key: sub.apiKey });
    const asOwner = await api(suite.server, 'GET', '/api/v2/queue-runs?limit=100', { key: suite.account.apiKey });
    expect(asSub.status).toBe(200);
    expect(asSub.body).toEqual(asOwner.body);
  });
});
