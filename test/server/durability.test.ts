// Across modules: acknowledged writes survive kill -9 (the routes, the store and SQLite together).
import { describe, expect, it } from 'vitest';
import { driverFor } from '../../src/server/store/driver.js';
import { soakKill } from '../helpers/kill-soak.mjs';

/**
 * docs/storage.md: a `kill -9` at any moment loses nothing the service
 * acknowledged; every acknowledged write is readable after a restart. A real server on a file database takes a burst
 * of creates (one sequential stream and waves of parallel ones) and is SIGKILLed while
 * requests are in flight; a new server on the same file must have every template that got a
 * 201, exactly as the 201 showed it. Three kills here; `node bench/soak-kill.mjs` runs twenty.
 */
describe('durability under kill -9', () => {
  // On this Node.js's SQLite driver (docs/storage.md): CI runs both, on Node 20 and on 22+.
  it(`on ${driverFor()}, every template that got a 201 is there after a restart, exactly as acknowledged (three kills)`, { timeout: 180_000 }, async () => {
    const summary = await soakKill({ rounds: 3, log: (line) => console.info(line) });
    expect(summary.rounds).toHaveLength(3);
    for (const round of summary.rounds) expect(round.acknowledged).toBeGreaterThanOrEqual(round.killAfter);
    expect(summary.lost).toEqual([]);
    expect(summary.changed).toEqual([]);
    // Only whole templates exist: anything beyond the acknowledged ones came from an answer lost in a kill.
    expect(summary.strays).toEqual([]);
    expect(summary.failures).toEqual([]);
  });
});
