import { createHash, randomBytes } from 'node:crypto';
import { DASHBOARD_CODE_MINUTES } from '../contract/vocabulary.js';

const digest = (code: string) => createHash('sha256').update(code).digest('base64url');

/**
 * One-time codes that stand for a key in the dashboard's URL: a browser keeps every URL it
 * loads in its history, so the URL `serve --demo` prints carries a code, never the key. A
 * code is traded for its key once, within DASHBOARD_CODE_MINUTES; held by its hash, in memory.
 */
export class DashboardCodes {
  private readonly pending = new Map<string, { key: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(key: string): string {
    const code = randomBytes(16).toString('base64url');
    this.pending.set(digest(code), { key, expiresAt: this.now() + DASHBOARD_CODE_MINUTES * 60_000 });
    return code;
  }

  /** The code's key, the first time only; null for a used, expired or unknown code. */
  redeem(code: string): string | null {
    const now = this.now();
    for (const [hash, entry] of this.pending) if (entry.expiresAt <= now) this.pending.delete(hash);
    const hash = digest(code);
    const key = this.pending.get(hash)?.key ?? null;
    this.pending.delete(hash);
    return key;
  }
}
