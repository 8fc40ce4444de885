import { describe } from 'vitest';
import { registerServe } from '../../../src/cli/commands/serve/serve.js';
import { itParsesFlags } from '../../helpers/flags.js';

/** What serve runs with when no flag is given. */
const SERVE_DEFAULTS = { host: '127.0.0.1', allowHost: [], port: 4747, stepSeconds: 2, readsPerMinute: 120, writesPerMinute: 30, rateWindowSeconds: 60, accessLog: true, fault: [] };

describe('serve flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerServe(program, deps, wrap, runF),
    [
      [['serve'], { options: SERVE_DEFAULTS }],
      [
        ['serve', '--host', '0.0.0.0', '--allow-host', 'lab.local', '--allow-host', 'box', '--port', '0', '--db', ':memory:', '--demo', '--simulate', '--step-seconds', '0.5'],
        { options: { ...SERVE_DEFAULTS, host: '0.0.0.0', allowHost: ['lab.local', 'box'], port: 0, db: ':memory:', demo: true, simulate: true, stepSeconds: 0.5 } },
      ],
      [
        ['serve', '--reads-per-minute', '600', '--writes-per-minute', '60', '--rate-window-seconds', '5', '--no-access-log', '--seed', '7', '--max-in-flight', '4'],
        { options: { ...SERVE_DEFAULTS, readsPerMinute: 600, writesPerMinute: 60, rateWindowSeconds: 5, accessLog: false, seed: 7, maxInFlight: 4 } },
      ],
      [
        ['serve', '--import', 'fixtures.json', '--export-on-exit', 'state.json', '--fault', 'GET /api/v2/templates=503x2', '--fault', '* /api/*=reset'],
        { options: { ...SERVE_DEFAULTS, import: 'fixtures.json', exportOnExit: 'state.json', fault: ['GET /api/v2/templates=503x2', '* /api/*=reset'] } },
      ],
      // --exec takes a free port unless --port is given.
      [['serve', '--exec', 'npm test'], { options: { ...SERVE_DEFAULTS, exec: 'npm test', port: 0 } }],
      [['serve', '--exec', 'npm test', '--port', '4747'], { options: { ...SERVE_DEFAULTS, exec: 'npm test' } }],
      [['serve', '--port', '65536'], { usage: /--port.*expected a whole number from 0 to 65535/ }],
      [['serve', '--step-seconds', '0'], { usage: /--step-seconds.*of at least 0.01/ }],
      [['serve', '--reads-per-minute', '0'], { usage: /--reads-per-minute.*expected a whole number from 1 up/ }],
      [['serve', '--seed', '-1'], { usage: /--seed.*expected a whole number from 0 to 4294967295/ }],
      [['serve', '--max-in-flight', '0'], { usage: /--max-in-flight.*expected a whole number from 1 up/ }],
    ],
  );
});
