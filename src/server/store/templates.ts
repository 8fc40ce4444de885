import { withoutServerOwnedFields, type Paginated, type Template, type TemplateBody } from '../../contract/index.js';
import { NEWEST_FIRST, timestamp, type PageRequest, type StoreContext } from './repository-context.js';
import { whereOf } from './statements.js';
import { pageCache } from './page-cache.js';
import type { PluckAll } from './readers.js';

export interface TemplateFilter extends PageRequest {
  analysisType?: string | undefined;
  reportType?: string | undefined;
  reportCategory?: string | undefined;
}

/** Told the bytes of each step of a read, to reserve them; throws to end the read. */
export type ReserveBytes = (bytes: number) => void;

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
  return JSON.stringify({ id, userId, ...withoutServerOwnedFields(body), createdAt, updatedAt });
}

const parseTemplate = (document: string) => JSON.parse(document) as Template;
const COMMA = Buffer.from(',');
/** About 2.5 MiB of the largest documents: a few milliseconds of reading per step. */
const PAGE_STEP_ROWS = 10;
const CLOSE_PAGE = Buffer.from(']}');

export function templatesRepository(context: StoreContext) {
  const { db } = context;
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
  // Pages as sent, until the account's templates change (see page-cache.ts).
  const pages = pageCache(db, context.dataVersion);

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
   * A page of the list as the UTF-8 bytes of its JSON envelope, in parts, newest first
   * (insertion order breaks ties, so paging never skips or repeats). The stored documents are
   * joined as they are: parsing and serialising them again was most of a list request's time.
   * They are read as bytes (CAST AS BLOB) and never copied again: a page of 100 documents of
   * 256 KiB never becomes JavaScript strings, joined and then encoded, which held several
   * copies of it per request. The page is read PAGE_STEP_ROWS rows at a time, other requests
   * being served in between; the total and every step come from one snapshot. Each step's
   * bytes are passed to `reserve` as they are read, which may end the read by throwing.
   */
  function* pageParts(pluckAll: PluckAll, accountId: string, filter: TemplateFilter, reserve: ReserveBytes): Generator<void, Buffer[], void> {
    const where = whereOf([
      ['account_id', accountId],
      ['analysis_type', filter.analysisType],
      ['report_type', filter.reportType],
      ['report_category', filter.reportCategory],
    ]);
    // Unfiltered, the count the triggers keep (migration 2); filtered, counted over the filter's index.
    const [total] =
      where.params.length === 1
        ? pluckAll('SELECT template_count FROM accounts WHERE id = ?', accountId)
        : pluckAll(`SELECT count(*) FROM templates ${where.sql}`, ...where.params);
    const parts: Buffer[] = [Buffer.from(`{"total":${Number(total ?? 0)},"page":${filter.page},"limit":${filter.limit},"data":[`)];
    const rows = `SELECT CAST(document AS BLOB) FROM templates ${where.sql} ${NEWEST_FIRST} LIMIT ? OFFSET ?`;
    const first = (filter.page - 1) * filter.limit;
    for (let offset = first; offset < first + filter.limit; offset += PAGE_STEP_ROWS) {
      if (offset > first) yield;
      const wanted = Math.min(PAGE_STEP_ROWS, first + filter.limit - offset);
      const documents = pluckAll(rows, ...where.params, wanted, offset) as Buffer[];
      reserve(documents.reduce((sum, document) => sum + document.length, 0));
      for (const document of documents) {
        if (parts.length > 1) parts.push(COMMA);
        parts.push(document);
      }
      if (documents.length < wanted) break;
    }
    parts.push(CLOSE_PAGE);
    return parts;
  }
  // The service hands the same parsed query object to every request with the same query
  // string (see routes/wiring.ts): its text is made once, and the cache finds it by a string
  // whose hash is already known.
  const queryTexts = new WeakMap<TemplateFilter, string>();
  const queryText = (filter: TemplateFilter): string => {
    let text = queryTexts.get(filter);
    if (text === undefined) {
      text = `${filter.page} ${filter.limit} ${filter.analysisType ?? ''} ${filter.reportType ?? ''} ${filter.reportCategory ?? ''}`;
      queryTexts.set(filter, text);
    }
    return text;
  };

  /** The stored JSON text; null for an unknown id and for another account's id alike. */
  const getJson = (accountId: string, id: string): string | null => byId.get(accountId, id) ?? null;

  return {
    /**
     * A page as the parts of its JSON text, read in steps (see pageParts) unless the cache has
     * it; `reserve` is told the bytes of each step read.
     */
    listJson(accountId: string, filter: TemplateFilter, reserve: ReserveBytes): readonly Buffer[] | Promise<readonly Buffer[]> {
      return pages.page(accountId, queryText(filter), () => context.readers.read((pluckAll) => pageParts(pluckAll, accountId, filter, reserve)));
    },
    getJson,
    list(accountId: string, filter: TemplateFilter): Paginated<Template> {
      const parts = context.readers.readNow((pluckAll) => pageParts(pluckAll, accountId, filter, () => {}));
      return JSON.parse(Buffer.concat(parts).toString('utf8')) as Paginated<Template>;
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
      return pages.write(accountId, () => create.immediate(accountId, userId, body));
    },
    /** Full replacement: fields not in the body are gone; id, owner and createdAt are kept. */
    replace(accountId: string, id: string, body: TemplateBody): Template | null {
      return pages.write(accountId, () => replace.immediate(accountId, id, body));
    },
    delete(accountId: string, id: string): boolean {
      return pages.write(accountId, () => remove.run(accountId, id).changes > 0);
    },
  };
}
