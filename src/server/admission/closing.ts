import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * Step 6 of the gate, and what shutting down changes: once close() begins, a new request is
 * refused 503 (after the rate limit, so the refusal carries its headers), the requests in
 * flight finish, each response ends its connection, and the health check says so.
 */
export class Closing {
  private closing = false;

  register(app: FastifyInstance): void {
    app.addHook('preClose', async () => {
      this.closing = true;
    });
  }

  refuseWhileClosing(): void {
    if (this.closing) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The service is shutting down; try again later', undefined, { 'retry-after': '1' });
    }
  }

  /**
   * A keep-alive connection that turns idle only after close() began (a slow upload finishing,
   * say) would otherwise hold the process open for the whole keep-alive timeout.
   */
  endConnectionWhileClosing(reply: FastifyReply): void {
    if (this.closing) reply.header('connection', 'close');
  }

  /** False once close() began. */
  serving(): boolean {
    return !this.closing;
  }
}
