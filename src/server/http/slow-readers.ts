import type { ServerResponse } from 'node:http';
import type { Limits } from '../limits.js';

/** A response's 'timeout' listener (`this` is the response): one function for every response. */
function dropStalledResponse(this: ServerResponse): void {
  this.destroy();
}

/** A response past its deadline goes with its connection. */
const dropLateResponse = (response: ServerResponse) => response.destroy();

/**
 * Watches a response just handed to its socket. What is still queued must make progress (a
 * write taken, a read) within `responseStallMs`, and be taken whole within
 * `responseDeadlineMs` however steadily it is read, or it is destroyed with its connection:
 * a client that stops reading, or reads just fast enough to dodge the stall limit, keeps its
 * response's memory no longer. A response the kernel took whole needs no watch: arming one
 * per response cost throughput on cached pages (docs/performance.md, "What was cut").
 */
export function slowReaderWatch(limits: Limits): (response: ServerResponse) => void {
  const { responseStallMs, responseDeadlineMs } = limits;
  return (response) => {
    if (response.writableEnded && response.writableLength === 0) return;
    response.setTimeout(responseStallMs, dropStalledResponse);
    const deadline = setTimeout(dropLateResponse, responseDeadlineMs, response);
    response.once('close', () => clearTimeout(deadline));
  };
}
