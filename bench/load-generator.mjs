// The load generator of bench/server-throughput.mjs, in a process of its own so that it never
// shares a thread with the server it measures. Prints one JSON line with the counts.
//   node bench/load-generator.mjs '{"generator":"wrk","url":URL,"connections":32,"seconds":3,"keys":[...]}'
//   node bench/load-generator.mjs '{"generator":"autocannon","autocannon":PATH,...}'
// wrk (C, one thread) costs far less per request than autocannon, so it can keep a bare
// node:http server busy on a core of its own; autocannon cannot, on a machine of two cores.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const options = JSON.parse(process.argv[2]);
const result = options.generator === 'wrk' ? wrk(options) : await autocannon(options);
console.log(JSON.stringify(result));

/** autocannon, with each connection keeping one API key (connections dealt to the keys in turn). */
async function autocannon({ autocannon: autocannonPath, url, connections, seconds, keys }) {
  const run = createRequire(import.meta.url)(autocannonPath);
  let dealt = 0;
  const result = await run({
    url,
    connections,
    duration: seconds,
    // One key per connection for the whole run, as a client of one account would keep it.
    setupClient: (client) => client.setHeaders({ apiKey: keys[dealt++ % keys.length] }),
  });
  return {
    ok: result['2xx'],
    other: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/**
 * wrk, one thread: its requests are made once, one per key, and dealt in turn (a connection
 * may send several keys; the service keeps no state per connection). Non-2xx answers are
 * counted apart. Latencies in ms.
 */
function wrk({ url, connections, seconds, keys }) {
  const { pathname, search } = new URL(url);
  const script = `
local keys = ${luaList(keys)}
local requests = {}
local sent = 0
init = function(args)
  for i, key in ipairs(keys) do requests[i] = wrk.format("GET", ${luaString(pathname + search)}, { apiKey = key }) end
end
request = function()
  sent = sent + 1
  return requests[(sent - 1) % #requests + 1]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('RESULT {"requests":%d,"durationUs":%d,"status":%d,"errors":%d,"p50":%.3f,"p99":%.3f}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end`;
  const work = mkdtempSync(join(tmpdir(), 'reportctl-wrk-'));
  try {
    writeFileSync(join(work, 'keys.lua'), script);
    const run = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', join(work, 'keys.lua'), url], { encoding: 'utf8' });
    const line = run.stdout?.split('\n').find((text) => text.startsWith('RESULT '));
    if (run.status !== 0 || !line) throw new Error(`wrk failed (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr}`);
    const counts = JSON.parse(line.slice('RESULT '.length));
    return {
      ok: counts.requests - counts.status,
      other: counts.status,
      errors: counts.errors,
      seconds: counts.durationUs / 1e6,
      p50: counts.p50,
      p99: counts.p99,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function luaString(text) {
  return JSON.stringify(text);
}
function luaList(texts) {
  return `{ ${texts.map(luaString).join(', ')} }`;
}
