import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The page's one way in, as the dashboard's sign-in: the printed URL carries a code in its
 * #fragment (never sent in a request line, so never in a log), which the page trades once for
 * a session token and takes out of the address bar. The token lives in the tab and goes in the
 * Authorization header of every request that reads the file; nothing else answers data.
 */
export class PreviewSignIn {
  readonly code = randomBytes(16).toString('base64url');
  private readonly token = randomBytes(32).toString('base64url');
  private used = false;

  /** The session token for the code, the first time only; null for any other code or a second try. */
  redeem(code: unknown): string | null {
    if (this.used || typeof code !== 'string' || !equalText(code, this.code)) return null;
    this.used = true;
    return this.token;
  }

  /** Whether an Authorization header carries this session's token. */
  admits(authorization: string | undefined): boolean {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    return this.used && token !== undefined && equalText(token, this.token);
  }
}

/** Compared in constant time: how long a refusal takes says nothing of how close a guess was. */
function equalText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
