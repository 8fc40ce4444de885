// kill -9 soak: `node bench/soak-kill.mjs [rounds]` (default 20). Each round SIGKILLs a real
// `reportctl serve` during a burst of creates and checks, after a restart, that every
// acknowledged template is still there exactly as acknowledged. Build first (`npm run build`).
// The test suite runs the same soak with 3 rounds (test/server/durability.test.ts).
import { soakKill } from '../test/helpers/kill-soak.mjs';

const rounds = Number(process.argv[2] ?? 20);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench/soak-kill.mjs [rounds]');
  process.exitCode = 2;
} else {
  const started = Date.now();
  const summary = await soakKill({ rounds, log: (line) => console.log(line) });
  const inFlight = summary.rounds.reduce((sum, round) => sum + round.unanswered, 0);
  const problems = [...summary.lost, ...summary.changed, ...summary.strays, ...summary.failures];
  console.log(
    `\n${rounds} kills in ${((Date.now() - started) / 1000).toFixed(1)} s: ${summary.acknowledged} acknowledged templates, ` +
      `${inFlight} requests in flight at the kills; ${summary.lost.length} lost, ${summary.changed.length} changed, ` +
      `${summary.strays.length} strays, ${summary.failures.length} other failures`,
  );
  for (const problem of problems) console.log(typeof problem === 'string' ? problem : JSON.stringify(problem));
  console.log(problems.length === 0 ? 'OK: nothing acknowledged was lost' : `FAILED (database kept at ${summary.db})`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
