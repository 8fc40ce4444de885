import type { Paginated, Queue, QueueRun, QueueRunStatus, StepStatus } from '../../contract/index.js';
import { finishedQueueRunStatuses } from '../../contract/vocabulary.js';
import { analysisWriter } from './analyses.js';
import { pageQuery, timestamp, type StoreContext } from './repository-context.js';
import { statementCache, whereOf } from './statements.js';
import type { QueueRow } from './queues.js';

/**
 * A step as stored in a run (a type alias, so it is assignable to the contract's loose step).
 * `analysisId` and `finishedAt` appear once it finishes; databases and snapshots of earlier
 * versions hold them as null until then, which reads as absent.
 */
type RunStep = {
  order: number;
  lotId: string;
  analysisType: string;
  status: StepStatus;
  analysisId?: string | null;
  finishedAt?: string | null;
};

/** The stored steps, with the nulls earlier versions wrote left out. */
function stepsOf(stored: string): RunStep[] {
  const steps = JSON.parse(stored) as RunStep[];
  for (const step of steps) {
    if (step.analysisId === null) delete step.analysisId;
    if (step.finishedAt === null) delete step.finishedAt;
  }
  return steps;
}

export interface EnqueueOptions {
  /** Defaults to the queue's name. */
  name?: string | undefined;
  /** Defaults to 0. */
  estimatedHa?: number | undefined;
  /** The step (1-based order) that will fail, for tests and demos. */
  failAtStep?: number | null | undefined;
}

/** The result for a run that will not change again. */
export interface RunFinished {
  error: 'finished';
}

export interface RunRow {
  id: string;
  account_id: string;
  queue_id: string;
  name: string;
  status: QueueRunStatus;
  estimated_ha: number;
  steps: string;
  fail_at_step: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const columns =
  'id, account_id, queue_id, name, status, estimated_ha, steps, fail_at_step, created_at, started_at, finished_at';
const FINISHED: ReadonlySet<string> = new Set(finishedQueueRunStatuses);
const ACTIVE_SQL = "status IN ('pending', 'claimed', 'running')";

export function toRun(row: RunRow): QueueRun {
  return {
    id: row.id,
    name: row.name,
    queueId: row.queue_id,
    status: row.status,
    estimatedHa: row.estimated_ha,
    steps: stepsOf(row.steps) as QueueRun['steps'],
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/**
 * Runs move `pending → claimed → running → completed | failed`, or to `cancelled` from any
 * unfinished state. Each call of advance() is one deterministic step, one transaction.
 */
export function queueRunsRepository(context: StoreContext) {
  const { db } = context;
  const prepare = statementCache(db);
  const queueById = db.prepare<[string], QueueRow>('SELECT id, account_id, name, steps, created_at FROM queues WHERE id = ?');
  const insert = db.prepare<[string, string, string, string, string, number, string, number | null, string]>(
    `INSERT INTO queue_runs (id, account_id, queue_id, name, status, estimated_ha, steps, fail_at_step, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string], RunRow>(`SELECT ${columns} FROM queue_runs WHERE id = ?`);
  const byAccountAndId = db.prepare<[string, string], RunRow>(`SELECT ${columns} FROM queue_runs WHERE account_id = ? AND id = ?`);
  const update = db.prepare<[QueueRunStatus, string, string | null, string | null, string]>(
    'UPDATE queue_runs SET status = ?, steps = ?, started_at = ?, finished_at = ? WHERE id = ?',
  );
  const active = db.prepare<[], string>(`SELECT id FROM queue_runs WHERE ${ACTIVE_SQL} ORDER BY seq`).pluck();
  const writeAnalysis = analysisWriter(context);

  const enqueue = db.transaction((queueId: string, options: EnqueueOptions): QueueRun | null => {
    const queue = queueById.get(queueId);
    if (!queue) return null;
    const steps: RunStep[] = (JSON.parse(queue.steps) as Queue['steps']).map((step) => ({
      order: step.order,
      lotId: step.lotId,
      analysisType: step.analysisType,
      status: 'pending',
    }));
    const run: RunRow = {
      id: context.randomId(),
      account_id: queue.account_id,
      queue_id: queue.id,
      name: options.name ?? queue.name,
      status: 'pending',
      estimated_ha: options.estimatedHa ?? 0,
      steps: JSON.stringify(steps),
      fail_at_step: options.failAtStep ?? null,
      created_at: timestamp(context),
      started_at: null,
      finished_at: null,
    };
    insert.run(
      run.id,
      run.account_id,
      run.queue_id,
      run.name,
      run.status,
      run.estimated_ha,
      run.steps,
      run.fail_at_step,
      run.created_at,
    );
    return toRun(run);
  });

  /** Applies `change` to an unfinished run and saves it; the run as it is afterwards. */
  function changeUnfinishedRun(change: (run: RunRow, steps: RunStep[], now: string) => void) {
    return db.transaction((runId: string): QueueRun | RunFinished | null => {
      const run = byId.get(runId);
      if (!run) return null;
      if (FINISHED.has(run.status)) return { error: 'finished' };
      const steps = stepsOf(run.steps);
      change(run, steps, timestamp(context));
      update.run(run.status, JSON.stringify(steps), run.started_at, run.finished_at, run.id);
      return toRun({ ...run, steps: JSON.stringify(steps) });
    });
  }

  /** Starts the next pending step, or completes the run when none is left. */
  function startNextStep(run: RunRow, steps: RunStep[], now: string): void {
    const next = steps.find((step) => step.status === 'pending');
    if (next) {
      next.status = 'running';
    } else {
      run.status = 'completed';
      run.finished_at = now;
    }
  }

  const advance = changeUnfinishedRun((run, steps, now) => {
    switch (run.status) {
      case 'pending':
        run.status = 'claimed';
        return;
      case 'claimed':
        run.status = 'running';
        run.started_at = now;
        startNextStep(run, steps, now);
        return;
      case 'running': {
        const current = steps.find((step) => step.status === 'running');
        if (current) {
          const failed = current.order === run.fail_at_step;
          const analysis = writeAnalysis(run.account_id, {
            lotId: current.lotId,
            analysisType: current.analysisType,
            status: failed ? 'failed' : 'completed',
            queueRunId: run.id,
          });
          current.status = failed ? 'failed' : 'completed';
          current.analysisId = analysis.id;
          current.finishedAt = now;
          if (failed) {
            for (const step of steps) if (step.status === 'pending') step.status = 'skipped';
            run.status = 'failed';
            run.finished_at = now;
            return;
          }
        }
        startNextStep(run, steps, now);
        return;
      }
      default:
        throw new Error(`queue run ${run.id} has unknown status ${run.status}`);
    }
  });

  // A cancelled step produced nothing, so it is skipped (no analysis, no finishedAt).
  const cancel = changeUnfinishedRun((run, steps, now) => {
    for (const step of steps) if (step.status === 'pending' || step.status === 'running') step.status = 'skipped';
    run.status = 'cancelled';
    run.finished_at = now;
  });

  return {
    /** A new pending run of the queue's steps (any account's queue: admin only). Null for an unknown queue. */
    enqueue(queueId: string, options: EnqueueOptions = {}): QueueRun | null {
      return enqueue.immediate(queueId, options);
    },
    /** One step of the life cycle. Null for an unknown run. */
    advance(runId: string): QueueRun | RunFinished | null {
      return advance.immediate(runId);
    },
    /** Unfinished steps become `skipped`. Null for an unknown run. */
    cancel(runId: string): QueueRun | RunFinished | null {
      return cancel.immediate(runId);
    },
    list(accountId: string, filter: { status?: string | undefined; page: number; limit: number }): Paginated<QueueRun> {
      const where = whereOf([
        ['account_id', accountId],
        ['status', filter.status],
      ]);
      return pageQuery(context, prepare, 'queue_runs', columns, where, filter, toRun);
    },
    get(accountId: string, id: string): QueueRun | null {
      const row = byAccountAndId.get(accountId, id);
      return row ? toRun(row) : null;
    },
    /** Any account's run, for admin commands. */
    getById(id: string): QueueRun | null {
      const row = byId.get(id);
      return row ? toRun(row) : null;
    },
    /** Unfinished runs, oldest first: what the simulator moves on each tick. */
    activeRunIds(): string[] {
      return active.all();
    },
  };
}
