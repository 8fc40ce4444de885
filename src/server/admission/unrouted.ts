import { ApiError } from '../errors.js';
import { ECHO_MAX, shown } from '../http/log-redaction.js';
import type { Endpoint } from '../routes/endpoint.js';

interface CompiledPath {
  pattern: RegExp;
  isStatic: boolean;
  methods: Set<string>;
}

/**
 * Which methods a concrete path allows. A static path wins over a parameter one, so
 * `GET /api/v2/templates/validate-formula` is a 405, not a lookup of a template of that id.
 */
class EndpointIndex {
  private readonly paths: CompiledPath[] = [];

  constructor(endpoints: readonly Endpoint[]) {
    const byUrl = new Map<string, CompiledPath>();
    for (const endpoint of endpoints) {
      let compiled = byUrl.get(endpoint.url);
      if (!compiled) {
        const source = endpoint.url
          .split('/')
          .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/');
        compiled = { pattern: new RegExp(`^${source}/?$`), isStatic: !endpoint.url.includes(':'), methods: new Set() };
        byUrl.set(endpoint.url, compiled);
        this.paths.push(compiled);
      }
      compiled.methods.add(endpoint.method);
      if (endpoint.method === 'GET') compiled.methods.add('HEAD');
    }
  }

  allowedMethods(path: string): Set<string> | null {
    const matches = this.paths.filter((candidate) => candidate.pattern.test(path));
    if (matches.length === 0) return null;
    const statics = matches.filter((candidate) => candidate.isStatic);
    const chosen = statics.length > 0 ? statics : matches;
    return new Set(chosen.flatMap((candidate) => [...candidate.methods]));
  }
}

/**
 * Step 7 of the gate: a known path with the wrong method is a 405, an unknown path a 404. A
 * request routed to a path without parameters, written as that path, is neither (checked
 * first: it is every list request). A path with an id may name a static path of another
 * method (GET .../validate-formula). Messages echo the path; a key pasted into it must not
 * come back.
 */
export function unroutedRefusal(endpoints: readonly Endpoint[]): (method: string, path: string, endpoint: Endpoint | undefined) => void {
  const index = new EndpointIndex(endpoints);
  return (method, path, endpoint) => {
    if (endpoint !== undefined && (path === endpoint.url || path === `${endpoint.url}/`)) return;
    const allowed = index.allowedMethods(path);
    if (!allowed) throw new ApiError('NOT_FOUND', `No route ${method} ${shown(path, ECHO_MAX)}`);
    if (!allowed.has(method)) {
      throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${shown(path, ECHO_MAX)}`, undefined, {
        allow: [...allowed].join(', '),
      });
    }
  };
}
