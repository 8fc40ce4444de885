import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { InFlightLimiter } from '../../src/server/admission/in-flight.js';

/** What the limiter uses of a response: its one 'close' event. */
const response = () => new EventEmitter() as unknown as ServerResponse;

describe('InFlightLimiter', () => {
  it('counts an account up to its limit, and frees a slot when an answer closes', () => {
    const limiter = new InFlightLimiter(2);
    const [first, second, third] = [response(), response(), response()];
    expect(limiter.enter('a', first)).toBe(true);
    expect(limiter.enter('a', second)).toBe(true);
    expect(limiter.enter('a', third)).toBe(false);
    // Another account is not held up.
    expect(limiter.enter('b', response())).toBe(true);
    first.emit('close');
    expect(limiter.inFlight('a')).toBe(1);
    expect(limiter.enter('a', third)).toBe(true);
    second.emit('close');
    third.emit('close');
    expect(limiter.inFlight('a')).toBe(0);
  });

  it('keeps idle accounts at zero, but not without bound', () => {
    const limiter = new InFlightLimiter(4);
    for (let i = 0; i <= 10_000; i++) {
      const answer = response();
      limiter.enter(`account ${i}`, answer);
      answer.emit('close');
    }
    expect(limiter.accountsCounted).toBeLessThanOrEqual(10_000);
    // Busy accounts are never dropped.
    const busy = response();
    limiter.enter('busy', busy);
    for (let i = 0; i <= 10_000; i++) limiter.enter(`other ${i}`, response());
    expect(limiter.inFlight('busy')).toBe(1);
  });
});
