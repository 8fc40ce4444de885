import type { Paginated, Template, TemplateBody } from '../../contract/index.js';
import { NEWEST_FIRST, statementCache, timestamp, whereOf, type PageRequest, type StoreContext } from './context.js';

export interface TemplateFilter extends PageRequest {
  analysisType?: string | undefined;
  reportType?: string | undefined;
  reportCategory?: string | undefined;
}

export interface TemplateLimitExceeded {
  limitExceeded: true;
  limit: number;
}

interface LimitRow {
  template_limit: number;
  template_count: number;
}

/**
 * The stored document: server-owned fields around exactly the fields of the body, in the
 * order the service shows them. Server-owned fields a caller left in the body are dropped
 * (ownership and timestamps are never taken from a request).
 */
function templateDocument(id: string, userId: string, body: TemplateBody, createdAt: string, updatedAt: string): string {
  const { id: _id, userId: _userId, createdAt: _createdAt, updatedAt: _updatedAt, ...fields } = body as TemplateBody &
    Record<string, unknown>;
  return JSON.stringify({ id, userId, ...fields, createdAt, updatedAt });
}

const parseTemplate = (document: string) => JSON.parse(document) as Template;

export function templatesRepository(context: StoreContext) {
  const { db } = context;
  const prepare = statementCache(db);
  const byId = db.prepare<[string, string], string>('SELECT document FROM templates WHERE account_id = ? AND id = ?').pluck();
  // Kept by triggers (migration 2): the same as count(*), without reading every row.
  const count = db.prepare<[string], number>('SELECT template_count FROM accounts WHERE id = ?').pluck();
  // Joined on the user so a key of one account can never create into another.
  const limitOf = db.prepare<[string, string], LimitRow>(
    `SELECT a.template_limit, a.template_count
     FROM accounts a JOIN users u ON u.account_id = a.id WHERE a.id = ? AND u.id = ?`,
  );
  const insert = db.prepare<[string, string, string, string, string, string, string, string, string]>(
    `INSERT INTO templates (id, account_id, user_id, analysis_type, report_type, report_category, document, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare<[string, string, string, string, string, string, string]>(
    `UPDATE templates SET analysis_type = ?, report_type = ?, report_category = ?, document = ?, updated_at = ?
     WHERE account_id = ? AND id = ?`,
  );
  const remove = db.prepare<[string, string]>('DELETE FROM templates WHERE account_id = ? AND id = ?');

  // Count and insert under one write lock (BEGIN IMMEDIATE, see create): no other
  // connection, in this process or another, can insert between them.
  const create = db.transaction((accountId: string, userId: string, body: TemplateBody): Template | TemplateLimitExceeded => {
    const limit = limitOf.get(accountId, userId);
    if (!limit) throw new Error(`user ${userId} is not a user of account ${accountId}`);
    if (limit.template_count >= limit.template_limit) return { limitExceeded: true, limit: limit.template_limit };
    const id = context.randomId();
    const now = timestamp(context);
    const document = templateDocument(id, userId, body, now, now);
    insert.run(id, accountId, userId, body.analysisType, body.reportType, body.reportCategory, document, now, now);
    return parseTemplate(document);
  });

  const replace = db.transaction((accountId: string, id: string, body: TemplateBody): Template | null => {
    const current = byId.get(accountId, id);
    if (current === undefined) return null;
    const { userId, createdAt } = parseTemplate(current);
    const updatedAt = timestamp(context);
    const document = templateDocument(id, userId, body, createdAt, updatedAt);
    update.run(body.analysisType, body.reportType, body.reportCategory, document, updatedAt, accountId, id);
    return parseTemplate(document);
  });

  /**
   * A page of the list as the JSON text of its envelope, newest first (insertion order breaks
   * ties, so paging never skips or repeats). The stored documents are joined as they are:
   * parsing and serialising 20 documents again was most of a list request's time. The total
   * and the page are read in one transaction, so both come from the same snapshot.
   */
  function listJson(accountId: string, filter: TemplateFilter): string {
    const where = whereOf([
      ['account_id', accountId],
      ['analysis_type', filter.analysisType],
      ['report_type', filter.reportType],
      ['report_category', filter.reportCategory],
    ]);
    // Unfiltered, the count the triggers keep; filtered, counted over the filter's index.
    const totalOf =
      where.params.length === 1
        ? () => count.get(accountId)
        : () => prepare(`SELECT count(*) FROM templates ${where.sql}`).pluck().get(...where.params) as number | undefined;
    const rows = prepare(`SELECT document FROM templates ${where.sql} ${NEWEST_FIRST} LIMIT ? OFFSET ?`).pluck();
    return context.snapshot(() => {
      const total = totalOf() ?? 0;
      const documents = rows.all(...where.params, filter.limit, (filter.page - 1) * filter.limit) as string[];
      return `{"total":${total},"page":${filter.page},"limit":${filter.limit},"data":[${documents.join(',')}]}`;
    });
  }
  /** The stored JSON text; null for an unknown id and for another account's id alike. */
  const getJson = (accountId: string, id: string): string | null => byId.get(accountId, id) ?? null;

  return {
    listJson,
    getJson,
    list(accountId: string, filter: TemplateFilter): Paginated<Template> {
      return JSON.parse(listJson(accountId, filter)) as Paginated<Template>;
    },
    get(accountId: string, id: string): Template | null {
      const document = getJson(accountId, id);
      return document === null ? null : parseTemplate(document);
    },
    /** Over the whole account: the owner's and every sub-user's templates. */
    count(accountId: string): number {
      return count.get(accountId) ?? 0;
    },
    /**
     * Stores the body as it is (the route has validated it and filled in defaults), unless
     * the account is at its template limit. Throws when `userId` is not a user of the account.
     */
    create(accountId: string, userId: string, body: TemplateBody): Template | TemplateLimitExceeded {
      return create.immediate(accountId, userId, body);
    },
    /** Full replacement: fields not in the body are gone; id, owner and createdAt are kept. */
    replace(accountId: string, id: string, body: TemplateBody): Template | null {
      return replace.immediate(accountId, id, body);
    },
    delete(accountId: string, id: string): boolean {
      return remove.run(accountId, id).changes > 0;
    },
  };
}
