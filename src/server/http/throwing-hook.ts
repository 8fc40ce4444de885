import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * An onRequest hook around a check that throws its refusal, in callback style: a check that
 * never waits then costs no promise and no microtask turn per request. A check that must wait
 * (the rare case) returns a promise instead, true when it responded to the request itself.
 */
export function throwingHook(check: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean> | undefined): onRequestHookHandler {
  return (request, reply, done) => {
    let waiting: Promise<boolean> | undefined;
    try {
      waiting = check(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (waiting === undefined) done();
    else waiting.then((responded) => (responded ? undefined : done()), done);
  };
}
