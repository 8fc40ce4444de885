/** Answers worth another try for a GET: the gateway or the service is briefly away. */
export const TRANSIENT_STATUS = new Set([502, 503, 504]);
/**
 * The request did not arrive whole in time (408 REQUEST_TIMEOUT): nothing was done, so even a
 * POST may be sent again.
 */
export const NOT_RECEIVED_STATUS = 408;
/** Network failures worth another try for a GET; an unknown host or a bad request is not. */
export const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** The wait before retry `attempt` (from 1): exponential with full jitter, 250 ms, 500 ms, 1 s ... capped at 8 s. */
export function backoffMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(8000, 250 * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
