// The load generator of bench/server-throughput.mjs, in a process of its own so that it never
// shares a thread with the server it measures: autocannon, with each connection keeping one
// API key (connections are dealt to the keys in turn). Prints one JSON line with the counts.
//   node bench/load-generator.mjs '{"autocannon":PATH,"url":URL,"connections":32,"seconds":3,"keys":[...]}'
import { createRequire } from 'node:module';

const { autocannon: autocannonPath, url, connections, seconds, keys } = JSON.parse(process.argv[2]);
const autocannon = createRequire(import.meta.url)(autocannonPath);

let dealt = 0;
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  // One key per connection for the whole run, as a client of one account would keep it.
  setupClient: (client) => client.setHeaders({ apiKey: keys[dealt++ % keys.length] }),
});
console.log(
  JSON.stringify({
    ok: result['2xx'],
    other: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds: result.duration,
    bytes: result.throughput.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: result.statusCodeStats,
  }),
);
