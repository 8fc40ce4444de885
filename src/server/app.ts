import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerAccessLog, logWhenAnswered, type AccessLog } from './http/access-log.js';
import { admission } from './admission.js';
import { clientErrorHandler } from './http/client-errors.js';
import { capConnections, MAX_CONNECTIONS } from './http/connection-cap.js';
import { DashboardCodes } from './dashboard-codes.js';
import { errorAnswer, frameworkErrorAnswer, registerErrorAnswers } from './http/error-answers.js';
import { fastifyOptions } from './http/fastify-options.js';
import { faultInjection } from './faults.js';
import { hostCheck } from './host-check.js';
import { registerJsonBody } from './http/json-body.js';
import { registerDashboard } from './routes/dashboard.js';
import { registerHealth } from './routes/health.js';
import { serviceEndpoints } from './routes/service.js';
import { wireEndpoints } from './routes/wiring.js';
import { throwingHook } from './http/throwing-hook.js';
import type { Store } from './store/index.js';

export interface AppOptions {
  store: Store;
  readsPerMinute: number;
  writesPerMinute: number;
  /** One line per request (method, path, status, ms). Never given the key. */
  accessLog?: AccessLog;
  /** Where 500s are reported; the client only ever sees a generic message. */
  errorLog?: (error: unknown) => void;
  now?: () => number;
  /** The whole request must arrive within this (default 30 s)... */
  requestTimeoutMs?: number | undefined;
  /** ...and its request line and headers within this (default 10 s). Tests shorten both. */
  headersTimeoutMs?: number | undefined;
  /** The rolling rate-limit window (default 60 s; `serve --rate-window-seconds`). */
  rateWindowMs?: number | undefined;
  /** Requests of one account answered at once; more are answered 429 at once. Default: no cap. */
  maxInFlightPerAccount?: number | undefined;
  /** Bytes of pages all answers in flight may hold (default 192 MiB); past it, 503. Tests lower it. */
  maxAnswerBytes?: number | undefined;
  /** What one account's answers may hold of those (default a quarter); past it, 503. */
  maxAccountAnswerBytes?: number | undefined;
  /** An answer its client takes nothing of for this long is dropped (default 10 s). Tests shorten it. */
  answerStallMs?: number | undefined;
  /** An answer not taken whole this long after it was handed to its connection is dropped (default 30 s). */
  answerDeadlineMs?: number | undefined;
  /** Connections open at once (default 512); past it, a new one is answered 503 and closed. */
  maxConnections?: number | undefined;
  /** How long a keep-alive connection may stay idle between requests (default 30 s). */
  keepAliveTimeoutMs?: number | undefined;
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
  const endpoints = serviceEndpoints(options.store);
  const admitted = admission({ ...options, endpoints, now });
  const answerError = errorAnswer(options.errorLog);
  const checkHost = hostCheck(options.hostNames ?? []);
  // A request to a name this service is not is refused before it spends a rate limit; its
  // answer still says where the client address's bucket stands.
  const screen = (request: FastifyRequest, reply: FastifyReply) => {
    try {
      checkHost(request);
    } catch (refusal) {
      reply.headers(admitted.unspentRateHeaders(request.ip, request.method));
      throw refusal;
    }
    admitted.admit(request, reply);
  };

  const app = Fastify(
    fastifyOptions(options, {
      frameworkErrors: frameworkErrorAnswer(
        screen,
        answerError,
        accessLog && ((request, reply) => logWhenAnswered(accessLog, now, request, reply)),
      ),
      clientErrorHandler: clientErrorHandler(accessLog, now, admitted.unspentRateHeaders),
    }),
  );
  capConnections(app.server, options.maxConnections ?? MAX_CONNECTIONS, admitted.unspentRateHeaders);
  registerJsonBody(app);
  // Both checks in one hook: every hook is a step of Fastify's runner for every request.
  app.addHook('onRequest', throwingHook(screen));
  admitted.register(app);
  // After admission (key, rate limit, route), right before the handler.
  app.addHook('preHandler', faultInjection(options.store, options.faultRandom ?? Math.random));
  wireEndpoints(app, endpoints);
  registerHealth(app, admitted.serving);
  if (options.dashboardDir !== undefined) registerDashboard(app, options.dashboardDir, options.dashboardCodes ?? new DashboardCodes(now));
  registerErrorAnswers(app, answerError);
  if (accessLog) registerAccessLog(app, accessLog, now);
  return app;
}
