// Across modules: the undici internals src/client/transport.ts reaches by path, held to undici's own.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * src/client/transport.ts imports undici's internals by path and copies onto its Dispatcher's
 * prototype what undici's index does as it loads. Neither is undici's public API: an upgrade
 * that moves a file, renames an export or changes what the index patches fails here, by name,
 * instead of in a network command at run time.
 */
const require = createRequire(import.meta.url);

describe("undici's internals that transport.ts imports by path", () => {
  it('each file is where transport.ts looks and exports what it uses', () => {
    expect(typeof require('undici/lib/api/api-request.js'), 'undici/lib/api/api-request.js').toBe('function');
    expect(typeof require('undici/lib/api/api-connect.js'), 'undici/lib/api/api-connect.js').toBe('function');
    const errors = require('undici/lib/core/errors.js') as Record<string, unknown>;
    for (const name of ['HeadersTimeoutError', 'BodyTimeoutError', 'ConnectTimeoutError']) {
      expect(typeof errors[name], `undici/lib/core/errors.js ${name}`).toBe('function');
    }
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as { prototype: object };
    // The prototype patch reaches the proxy agent only through this chain.
    expect(Object.prototype.isPrototypeOf.call(Dispatcher.prototype, EnvHttpProxyAgent.prototype)).toBe(true);
  });

  it("they are the very objects undici's index puts on the public API", () => {
    const undici = require('undici') as Record<string, unknown> & { Dispatcher: { prototype: Record<string, unknown> } };
    expect(undici.EnvHttpProxyAgent).toBe(require('undici/lib/dispatcher/env-http-proxy-agent.js'));
    expect(undici.Dispatcher).toBe(require('undici/lib/dispatcher/dispatcher.js'));
    expect((undici.errors as Record<string, unknown>).HeadersTimeoutError).toBe((require('undici/lib/core/errors.js') as Record<string, unknown>).HeadersTimeoutError);
    // What transport.ts copies onto the prototype is what the index copies (of the methods it calls).
    expect(undici.Dispatcher.prototype.request).toBe(require('undici/lib/api/api-request.js'));
    expect(undici.Dispatcher.prototype.connect).toBe(require('undici/lib/api/api-connect.js'));
  });
});
