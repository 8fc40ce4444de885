import { hash, randomBytes } from 'node:crypto';
import { timestamp, type StoreContext } from './repository-context.js';

export const DEFAULT_TEMPLATE_LIMIT = 100;
export const API_KEY_PREFIX = 'rctl_';
/** What is kept of a key in clear, to tell keys apart in a listing: "rctl_" + 7 characters. */
const DISPLAY_PREFIX_LENGTH = 12;

export interface Account {
  id: string;
  name: string;
  templateLimit: number;
  /** Templates of the owner and every sub-user. */
  templateCount: number;
  createdAt: string;
}

/** A key as issued: the only moment its clear text exists. */
export interface IssuedKey {
  accountId: string;
  userId: string;
  keyId: string;
  apiKey: string;
}

export interface ApiKeyInfo {
  id: string;
  userId: string;
  userName: string;
  role: 'owner' | 'sub-user';
  /** The first characters of the key, for display; not enough to use it. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface Caller {
  accountId: string;
  userId: string;
}

interface AccountRow {
  id: string;
  name: string;
  template_limit: number;
  template_count: number;
  created_at: string;
}

/** 32 random bytes as base64url: 43 characters, 256 bits. */
function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * A plain SHA-256 is enough: the key is 256 random bits, so there is nothing to brute-force
 * that a slow, salted hash would protect. Lookup by hash also makes comparison time
 * independent of how much of a guessed key is right.
 */
export function hashApiKey(apiKey: string): string {
  // One-shot: no Hash object per request.
  return hash('sha256', apiKey, 'hex');
}

const accountColumns = 'a.id, a.name, a.template_limit, a.created_at, a.template_count';

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    templateLimit: row.template_limit,
    templateCount: row.template_count,
    createdAt: row.created_at,
  };
}

function keyWriter(context: StoreContext) {
  const insert = context.db.prepare<[string, string, string, string, string]>(
    'INSERT INTO api_keys (id, user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  return (accountId: string, userId: string, createdAt: string): IssuedKey => {
    const apiKey = newApiKey();
    const keyId = context.randomId();
    insert.run(keyId, userId, hashApiKey(apiKey), apiKey.slice(0, DISPLAY_PREFIX_LENGTH), createdAt);
    return { accountId, userId, keyId, apiKey };
  };
}

export function accountsRepository(context: StoreContext) {
  const { db } = context;
  const insertAccount = db.prepare<[string, string, number, string]>(
    'INSERT INTO accounts (id, name, template_limit, created_at) VALUES (?, ?, ?, ?)',
  );
  const insertUser = db.prepare<[string, string, string, string, string]>(
    'INSERT INTO users (id, account_id, name, role, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const byId = db.prepare<[string], AccountRow>(`SELECT ${accountColumns} FROM accounts a WHERE a.id = ?`);
  const all = db.prepare<[], AccountRow>(`SELECT ${accountColumns} FROM accounts a ORDER BY a.created_at DESC, a.rowid DESC`);
  const updateLimit = db.prepare<[number, string]>('UPDATE accounts SET template_limit = ? WHERE id = ?');
  const issueKey = keyWriter(context);

  const create = db.transaction((name: string, templateLimit: number): IssuedKey => {
    const createdAt = timestamp(context);
    const accountId = context.randomId();
    const userId = context.randomId();
    insertAccount.run(accountId, name, templateLimit, createdAt);
    insertUser.run(userId, accountId, 'owner', 'owner', createdAt);
    return issueKey(accountId, userId, createdAt);
  });

  const get = (accountId: string): Account | null => {
    const row = byId.get(accountId);
    return row ? toAccount(row) : null;
  };

  return {
    /** A new account with its owner and the owner's first key. */
    create(options: { name?: string; templateLimit?: number } = {}): IssuedKey {
      return create.immediate(options.name ?? 'Unnamed account', options.templateLimit ?? DEFAULT_TEMPLATE_LIMIT);
    },
    get,
    /** Newest first. */
    list(): Account[] {
      return all.all().map(toAccount);
    },
    /** Lowering the limit below the current count keeps the templates; it only stops new ones. */
    setTemplateLimit(accountId: string, templateLimit: number): Account | null {
      const changed = updateLimit.run(templateLimit, accountId).changes > 0;
      return changed ? get(accountId) : null;
    },
  };
}

interface KeyInfoRow {
  id: string;
  user_id: string;
  user_name: string;
  role: 'owner' | 'sub-user';
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export function keysRepository(context: StoreContext) {
  const { db } = context;
  const ownerOf = db.prepare<[string], string>("SELECT id FROM users WHERE account_id = ? AND role = 'owner'").pluck();
  const insertUser = db.prepare<[string, string, string, string]>(
    "INSERT INTO users (id, account_id, name, role, created_at) VALUES (?, ?, ?, 'sub-user', ?)",
  );
  const revoke = db.prepare<[string, string, string]>(
    'UPDATE api_keys SET revoked_at = ? WHERE (key_hash = ? OR id = ?) AND revoked_at IS NULL',
  );
  const authenticate = db.prepare<[string], Caller>(
    `SELECT u.account_id AS accountId, u.id AS userId
     FROM api_keys k JOIN users u ON u.id = k.user_id
     WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
  );
  const list = db.prepare<[string], KeyInfoRow>(
    `SELECT k.id, k.user_id, u.name AS user_name, u.role, k.prefix, k.created_at, k.revoked_at
     FROM api_keys k JOIN users u ON u.id = k.user_id
     WHERE u.account_id = ? ORDER BY k.created_at DESC, k.rowid DESC`,
  );
  const issueKey = keyWriter(context);

  /*
   * Every request authenticates, so callers are cached by key hash. Another process revoking
   * a key changes data_version, which empties the cache before the next lookup; a revoke
   * through this connection empties it directly. Misses are not cached (nor are unknown keys,
   * so guessing cannot fill memory), and the size is bounded.
   */
  const { dataVersion } = context;
  let callers = { dataVersion: -1, byHash: new Map<string, Caller>() };
  const MAX_CACHED_CALLERS = 10_000;

  /** Who the key with this hash belongs to; null for an unknown or revoked key. */
  function authenticateHash(hash: string): Caller | null {
    const version = dataVersion();
    if (version !== callers.dataVersion) callers = { dataVersion: version, byHash: new Map() };
    const cached = callers.byHash.get(hash);
    if (cached) return cached;
    const caller = authenticate.get(hash) ?? null;
    if (caller && callers.byHash.size < MAX_CACHED_CALLERS) callers.byHash.set(hash, caller);
    return caller;
  }

  const create = db.transaction((accountId: string, subUserName: string | undefined): IssuedKey | null => {
    const ownerId = ownerOf.get(accountId);
    if (ownerId === undefined) return null;
    const createdAt = timestamp(context);
    let userId = ownerId;
    if (subUserName !== undefined) {
      userId = context.randomId();
      insertUser.run(userId, accountId, subUserName, createdAt);
    }
    return issueKey(accountId, userId, createdAt);
  });

  return {
    /** A key for a new sub-user when `subUserName` is given, else one more key for the owner. */
    create(accountId: string, options: { subUserName?: string } = {}): IssuedKey | null {
      return create.immediate(accountId, options.subUserName);
    },
    /** Revokes a key given by its clear text or its id. False when no such key is still valid. */
    revoke(apiKeyOrKeyId: string): boolean {
      callers.byHash.clear();
      return revoke.run(timestamp(context), hashApiKey(apiKeyOrKeyId), apiKeyOrKeyId).changes > 0;
    },
    /** Who a key belongs to; null for an unknown or revoked key. */
    authenticate(apiKey: string): Caller | null {
      return authenticateHash(hashApiKey(apiKey));
    },
    /** `authenticate` for a key already hashed with `hashApiKey`. */
    authenticateHash,
    /** The account's keys (never their clear text), newest first. */
    list(accountId: string): ApiKeyInfo[] {
      return list.all(accountId).map((row) => ({
        id: row.id,
        userId: row.user_id,
        userName: row.user_name,
        role: row.role,
        prefix: row.prefix,
        createdAt: row.created_at,
        revokedAt: row.revoked_at,
      }));
    },
  };
}
