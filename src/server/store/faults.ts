import type { Fault, NewFault } from '../../contract/faults.js';
import { timestamp, type StoreContext } from './repository-context.js';

interface FaultRow {
  id: string;
  method: Fault['method'];
  path: string;
  kind: Fault['kind'];
  status: Fault['status'];
  latency_ms: number | null;
  rate: number;
  remaining: number | null;
  account_id: string | null;
  created_at: string;
}

const columns = 'id, method, path, kind, status, latency_ms, rate, remaining, account_id, created_at';

function toFault(row: FaultRow): Fault {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    kind: row.kind,
    status: row.status,
    latencyMs: row.latency_ms,
    rate: row.rate,
    remaining: row.remaining,
    accountId: row.account_id,
    createdAt: row.created_at,
  };
}

/**
 * Injected faults. The server asks for the live ones on every request, so they are cached
 * against PRAGMA data_version: an `admin faults` command in another process is seen on the
 * very next request, and a server without faults pays one pragma per request.
 */
export function faultsRepository(context: StoreContext) {
  const { db } = context;
  const insert = db.prepare<[string, string, string, string, number | null, number | null, number, number | null, string | null, string]>(
    `INSERT INTO faults (id, method, path, kind, status, latency_ms, rate, remaining, account_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const all = db.prepare<[], FaultRow>(`SELECT ${columns} FROM faults ORDER BY seq`);
  const live = db.prepare<[], FaultRow>(`SELECT ${columns} FROM faults WHERE remaining IS NULL OR remaining > 0 ORDER BY seq`);
  // One statement, so two servers (or two requests) can never both take the last use.
  const take = db.prepare<[string], { remaining: number | null }>(
    'UPDATE faults SET remaining = remaining - 1 WHERE id = ? AND (remaining IS NULL OR remaining > 0) RETURNING remaining',
  );
  const clearAll = db.prepare('DELETE FROM faults');
  const { dataVersion } = context;
  let cache: { dataVersion: number; faults: Fault[] } | null = null;

  return {
    add(fault: NewFault): Fault {
      const row: FaultRow = {
        id: context.randomId(),
        method: fault.method,
        path: fault.path,
        kind: fault.kind,
        status: fault.status,
        latency_ms: fault.latencyMs,
        rate: fault.rate,
        remaining: fault.remaining,
        account_id: fault.accountId,
        created_at: timestamp(context),
      };
      insert.run(row.id, row.method, row.path, row.kind, row.status, row.latency_ms, row.rate, row.remaining, row.account_id, row.created_at);
      cache = null;
      return toFault(row);
    },
    /** Every fault, used up or not, oldest first. */
    list(): Fault[] {
      return all.all().map(toFault);
    },
    /** The faults that can still act, oldest first (cached until the database changes). */
    live(): readonly Fault[] {
      const version = dataVersion();
      if (!cache || cache.dataVersion !== version) cache = { dataVersion: version, faults: live.all().map(toFault) };
      return cache.faults;
    },
    /** Uses the fault once; false when its last use is gone (another request took it). */
    take(id: string): boolean {
      const taken = take.get(id);
      if (taken && taken.remaining !== null) cache = null;
      return taken !== undefined;
    },
    /** How many were removed. */
    clear(): number {
      cache = null;
      return clearAll.run().changes;
    },
  };
}
