import type { Analysis, Paginated } from '../../contract/index.js';
import { envelope, pageQuery, timestamp, type StoreContext } from './repository-context.js';
import { isForeignKeyError, statementCache, whereOf } from './statements.js';

export interface AnalysisFilter {
  lotId?: string | undefined;
  analysisType?: string | undefined;
  status?: string | undefined;
}

export interface NewAnalysis {
  lotId: string;
  analysisType: string;
  status: string;
  queueRunId?: string | null;
}

export interface AnalysisRow {
  id: string;
  lot_id: string;
  analysis_type: string;
  status: string;
  queue_run_id: string | null;
  created_at: string;
  finished_at: string | null;
}

export const columns = 'id, lot_id, analysis_type, status, queue_run_id, created_at, finished_at';

export function toAnalysis(row: AnalysisRow): Analysis {
  return {
    id: row.id,
    lotId: row.lot_id,
    analysisType: row.analysis_type,
    status: row.status,
    queueRunId: row.queue_run_id,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** Writes an analysis row; shared with the run life cycle, which creates one per finished step. */
export function analysisWriter(context: StoreContext) {
  const insert = context.db.prepare<[string, string, string, string, string, string | null, string, string | null]>(
    `INSERT INTO analyses (id, account_id, lot_id, analysis_type, status, queue_run_id, created_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (accountId: string, analysis: NewAnalysis): Analysis => {
    const now = timestamp(context);
    const row: AnalysisRow = {
      id: context.randomId(),
      lot_id: analysis.lotId,
      analysis_type: analysis.analysisType,
      status: analysis.status,
      queue_run_id: analysis.queueRunId ?? null,
      created_at: now,
      // Analyses exist once they have a result, so they are finished when written.
      finished_at: now,
    };
    insert.run(row.id, accountId, row.lot_id, row.analysis_type, row.status, row.queue_run_id, row.created_at, row.finished_at);
    return toAnalysis(row);
  };
}

export function analysesRepository(context: StoreContext) {
  const prepare = statementCache(context.db);
  const write = analysisWriter(context);

  return {
    /** Newest first; the filters combine with AND. */
    list(accountId: string, filter: AnalysisFilter & { page: number; limit: number }): Paginated<Analysis> {
      const where = whereOf([
        ['account_id', accountId],
        ['lot_id', filter.lotId],
        ['analysis_type', filter.analysisType],
        ['status', filter.status],
      ]);
      return pageQuery(context, prepare, 'analyses', columns, where, filter, toAnalysis);
    },
    /**
     * The deprecated v0 listing, quirks kept for old clients: only the first filter present
     * (lotId, then analysisType, then status) applies, and rows come in storage order,
     * not newest first.
     */
    legacyList(accountId: string, filter: AnalysisFilter, page = 1, limit = 100): Paginated<Analysis> {
      const first = (
        [
          ['lot_id', filter.lotId],
          ['analysis_type', filter.analysisType],
          ['status', filter.status],
        ] as const
      ).find(([, value]) => value !== undefined);
      const where = whereOf(first ? [['account_id', accountId], first] : [['account_id', accountId]]);
      return context.snapshot(() => {
        const total = prepare(`SELECT count(*) FROM analyses ${where.sql}`).pluck().get(...where.params) as number;
        const rows = prepare(`SELECT ${columns} FROM analyses ${where.sql} ORDER BY seq LIMIT ? OFFSET ?`).all(
          ...where.params,
          limit,
          (page - 1) * limit,
        ) as AnalysisRow[];
        return envelope(total, { page, limit }, rows.map(toAnalysis));
      });
    },
    /** For fixtures and tests. Throws for an unknown account or queue run (callers check first). */
    insert(accountId: string, analysis: NewAnalysis): Analysis {
      try {
        return write(accountId, analysis);
      } catch (error) {
        if (isForeignKeyError(error)) throw new Error(`no account ${accountId} or queue run ${analysis.queueRunId}`, { cause: error });
        throw error;
      }
    },
  };
}
