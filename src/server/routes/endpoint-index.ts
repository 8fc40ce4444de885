import type { Endpoint } from './endpoint.js';

interface CompiledPath {
  pattern: RegExp;
  isStatic: boolean;
  methods: Set<string>;
}

/**
 * Which methods a concrete path allows. A static path wins over a parameter one, so
 * `GET /api/v2/templates/validate-formula` is a 405, not a lookup of a template of that id.
 */
export class EndpointIndex {
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
