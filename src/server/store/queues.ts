import type { Paginated, Queue } from '../../contract/index.js';
import { pageQuery, timestamp, type StoreContext } from './repository-context.js';
import { isForeignKeyError, statementCache, whereOf } from './statements.js';

export interface NewQueue {
  name: string;
  steps: ReadonlyArray<{ lotId: string; analysisType: string }>;
}

export interface QueueRow {
  id: string;
  account_id: string;
  name: string;
  steps: string;
  created_at: string;
}

const columns = 'id, account_id, name, steps, created_at';

export function toQueue(row: QueueRow): Queue {
  return { id: row.id, name: row.name, steps: JSON.parse(row.steps) as Queue['steps'], createdAt: row.created_at };
}

export function queuesRepository(context: StoreContext) {
  const { db } = context;
  const prepare = statementCache(db);
  const insert = db.prepare<[string, string, string, string, string]>(
    'INSERT INTO queues (id, account_id, name, steps, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byAccountAndId = db.prepare<[string, string], QueueRow>(`SELECT ${columns} FROM queues WHERE account_id = ? AND id = ?`);
  const byId = db.prepare<[string], QueueRow>(`SELECT ${columns} FROM queues WHERE id = ?`);

  return {
    /** Steps are numbered 1..n in the order given. Throws for an unknown account (callers check first). */
    create(accountId: string, queue: NewQueue): Queue {
      const steps = queue.steps.map((step, index) => ({ order: index + 1, lotId: step.lotId, analysisType: step.analysisType }));
      const row: QueueRow = {
        id: context.randomId(),
        account_id: accountId,
        name: queue.name,
        steps: JSON.stringify(steps),
        created_at: timestamp(context),
      };
      try {
        insert.run(row.id, row.account_id, row.name, row.steps, row.created_at);
      } catch (error) {
        if (isForeignKeyError(error)) throw new Error(`no account ${accountId}`, { cause: error });
        throw error;
      }
      return toQueue(row);
    },
    list(accountId: string, page: number, limit: number): Paginated<Queue> {
      return pageQuery(context, prepare, 'queues', columns, whereOf([['account_id', accountId]]), { page, limit }, toQueue);
    },
    get(accountId: string, id: string): Queue | null {
      const row = byAccountAndId.get(accountId, id);
      return row ? toQueue(row) : null;
    },
    /** Any account's queue, for admin commands. */
    getById(id: string): (Queue & { accountId: string }) | null {
      const row = byId.get(id);
      return row ? { ...toQueue(row), accountId: row.account_id } : null;
    },
  };
}
