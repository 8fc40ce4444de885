import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { validationFailed } from '../errors.js';
import { ECHO_MAX, shown } from '../http/log-redaction.js';

/** Addresses that listen on every interface: then any IP address names this service. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

/** `[IPv6]` with an optional `:port`, and nothing else: `[::1].evil.example` is no address. */
const BRACKETED = /^\[([^\]]*)\](?::\d*)?$/;

/**
 * The host name of a Host header or a --host value, without port, brackets or final dot, in
 * lower case; null when it is not a host (a bracketed part that is not an IPv6 address, or
 * anything after it but a port).
 */
export function hostName(host: string): string | null {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const address = BRACKETED.exec(trimmed)?.[1];
    return address !== undefined && isIP(address) === 6 ? address : null;
  }
  // A bare IPv6 address (a --host value) has colons of its own, and no port.
  return isIP(trimmed) === 6 ? trimmed : trimmed.replace(/:\d*$/, '').replace(/\.$/, '');
}

const isLoopback = (name: string) => name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));

/** Host headers whose verdict is kept: a client sends the same one on every request. */
const MAX_KNOWN_HOSTS = 64;

/**
 * Step 1 of the gate: whether a request's Host names this service: a loopback name or
 * address, one of `names` (serve's --host and --allow-host), or any IP address when listening
 * on all of them. A page on another name that resolves here (DNS rebinding) is refused, so it
 * never reads the dashboard, the OpenAPI document or the API as its own origin; an address
 * cannot be rebound, a name can. An HTTP/1.1 request without Host is refused on every path
 * (HTTP/1.0 has none).
 */
export function hostCheck(names: readonly string[]): (request: FastifyRequest) => void {
  const allowed = new Set(names.map(hostName).filter((name) => name !== null));
  const anyAddress = [...allowed].some((name) => WILDCARD_ADDRESSES.has(name));
  // Hosts accepted, by the header's text: a client sends the same one on every request, and
  // parsing it again (an IPv6 test among others) cost throughput (docs/performance.md, "What
  // was cut"). A refused one is not kept: it cannot fill the set.
  const known = new Set<string>();
  return (request) => {
    const host = request.headers.host;
    if (host !== undefined && known.has(host)) return;
    if (host === undefined || host === '') {
      // What Node refuses itself when asked to (requireHostHeader), as HTTP/1.1 requires.
      if (request.raw.httpVersion === '1.0') return;
      throw validationFailed([{ path: '', message: 'An HTTP/1.1 request must have a Host header' }], 'Request');
    }
    const name = hostName(host);
    if (name !== null && (isLoopback(name) || allowed.has(name) || (anyAddress && isIP(name) !== 0))) {
      if (known.size >= MAX_KNOWN_HOSTS) known.clear();
      known.add(host);
      return;
    }
    throw validationFailed(
      [{ path: '', message: `Host ${shown(host, ECHO_MAX)} is not a name of this service; start it with --allow-host NAME to add one` }],
      'Request',
    );
  };
}
