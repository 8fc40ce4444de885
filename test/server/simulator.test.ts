import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { listAll } from '../helpers/http.js';

/** `serve --simulate` (src/server/simulator.ts): runs move in real time, and the demo always has one moving. */

interface DemoLine {
  url: string;
  db: string;
  keys: { owner: string; subUser: string; accountId?: string };
}

describe('serve --demo --simulate keeps a run moving', () => {
  it('when every run has finished, a new demo run is enqueued and moves', async () => {
    const demo = await spawnCli(['serve', '--demo', '--simulate', '--step-seconds', '0.05', '--port', '0', '--db', ':memory:', '--json', '--no-access-log']);
    try {
      const line = JSON.parse(demo.firstLine) as DemoLine;
      const inFlight = ['pending', 'claimed', 'running'];
      const seen = new Map<string, Set<string>>();
      const deadline = Date.now() + 15_000;
      // Watch long enough for the seeded runs to end and live ones to go from start to finish.
      while (Date.now() < deadline) {
        const runs = await listAll<{ id: string; name: string; status: string }>(line, line.keys.owner, '/api/v2/queue-runs');
        for (const run of runs) if (run.name.endsWith('(live)')) seen.set(run.id, (seen.get(run.id) ?? new Set()).add(run.status));
        const finishedLive = [...seen.values()].filter((statuses) => statuses.has('completed')).length;
        if (finishedLive >= 2 && runs.some((run) => inFlight.includes(run.status))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const lifecycles = [...seen.values()];
      expect(lifecycles.filter((statuses) => statuses.has('completed')).length).toBeGreaterThanOrEqual(2);
      expect(lifecycles.some((statuses) => [...statuses].some((status) => inFlight.includes(status)))).toBe(true);
    } finally {
      await demo.stop('SIGKILL');
    }
  });
});
