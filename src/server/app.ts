import Fastify, { type FastifyInstance } from 'fastify';
import { gate } from './admission/index.js';
import { DashboardCodes } from './dashboard-codes.js';
import { registerAccessLog, logWhenSent, type AccessLog } from './http/access-log.js';
import { clientErrorHandler } from './http/client-errors.js';
import { ConnectionSlots } from './http/connection-cap.js';
import { errorResponder, frameworkErrorResponder, registerErrorResponses } from './http/error-responses.js';
import { fastifyOptions } from './http/fastify-options.js';
import { registerJsonBody } from './http/json-body.js';
import { limitsOf, type LimitOptions } from './limits.js';
import { registerDashboard } from './routes/dashboard.js';
import { registerHealth } from './routes/health.js';
import { serviceEndpoints } from './routes/service.js';
import { wireEndpoints } from './routes/wiring.js';
import type { Store } from './store/index.js';

export interface AppOptions extends LimitOptions {
  store: Store;
  /** One line per request (method, path, status, ms). Never given the key. */
  accessLog?: AccessLog;
  /** Where 500s are reported; the client only ever sees a generic message. */
  errorLog?: (error: unknown) => void;
  now?: () => number;
  /** The random source of faults with a rate below 1 (`serve --seed`); default Math.random. */
  faultRandom?: () => number;
  /** The built dashboard (dist/dashboard), served at `/`; without it, no dashboard. */
  dashboardDir?: string;
  /** The one-time codes the dashboard trades for a key (`serve --demo`'s URL); default: none issued. */
  dashboardCodes?: DashboardCodes;
  /** Host names requests may be addressed to besides loopback ones (`serve --host`, `--allow-host`). */
  hostNames?: readonly string[];
}

/** The service as a Fastify app that does not listen yet: each concern a module of its own. */
export function buildApp(options: AppOptions): FastifyInstance {
  const now = options.now ?? Date.now;
  const { accessLog } = options;
  const limits = limitsOf(options);
  const endpoints = serviceEndpoints(options.store);
  const slots = new ConnectionSlots(limits.maxConnections);
  const requestGate = gate({
    store: options.store,
    endpoints,
    limits,
    hostNames: options.hostNames ?? [],
    faultRandom: options.faultRandom ?? Math.random,
    connections: slots,
    now,
  });
  const respondWithError = errorResponder(options.errorLog);

  const app = Fastify(
    fastifyOptions(limits, {
      frameworkErrors: frameworkErrorResponder(
        requestGate.admit,
        respondWithError,
        accessLog && ((request, reply) => logWhenSent(accessLog, now, request, reply)),
      ),
      clientErrorHandler: clientErrorHandler(accessLog, now, requestGate.unspentRateHeaders),
    }),
  );
  slots.attach(app.server, requestGate.unspentRateHeaders);
  registerJsonBody(app);
  requestGate.register(app);
  wireEndpoints(app, endpoints);
  registerHealth(app, requestGate.serving);
  if (options.dashboardDir !== undefined) registerDashboard(app, options.dashboardDir, options.dashboardCodes ?? new DashboardCodes(now));
  registerErrorResponses(app, respondWithError);
  if (accessLog) registerAccessLog(app, accessLog, now);
  return app;
}
