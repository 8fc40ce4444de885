// The page reads the service as any client does: /api/v2 with the key in the apiKey header.
// The key never goes into a URL.
import { DASHBOARD_SIGN_IN_PATH } from '../contract/vocabulary.js';
import type { RateBucket } from './pacing.js';

/** An answer other than 2xx, in the service's error shape where it has one. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Service {
  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  delete(path: string): Promise<void>;
  /** The reads bucket as of the last answer, to pace polling by. */
  readonly reads: RateBucket | null;
}

export function connectService(apiKey: string, onKeyRefused: (error: ServiceError) => void): Service {
  let reads: RateBucket | null = null;
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const headers: Record<string, string> = { accept: 'application/json', apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
    });
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));
    const resetSeconds = Number(response.headers.get('x-ratelimit-reset'));
    if (method === 'GET' && response.headers.has('x-ratelimit-remaining') && Number.isFinite(remaining)) {
      reads = { remaining, resetSeconds: Number.isFinite(resetSeconds) ? resetSeconds : 1 };
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const errorBody = (parsed ?? {}) as { error?: unknown; message?: unknown };
      const error = new ServiceError(
        response.status,
        typeof errorBody.error === 'string' ? errorBody.error : `HTTP_${response.status}`,
        typeof errorBody.message === 'string' ? errorBody.message : `The service answered ${response.status}`,
      );
      if (response.status === 401) onKeyRefused(error);
      throw error;
    }
    return parsed;
  };
  return {
    get: async <T>(path: string, query: Record<string, string | number | undefined> = {}) => {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, String(value));
      const suffix = search.size > 0 ? `?${search.toString()}` : '';
      return (await call('GET', path + suffix)) as T;
    },
    post: async <T>(path: string, body: unknown) => (await call('POST', path, body)) as T,
    delete: async (path: string) => {
      await call('DELETE', path);
    },
    get reads() {
      return reads;
    },
  };
}

/** The key a one-time code stands for; null when the service refuses the code (used, expired, unknown) or cannot be reached. */
export async function redeemCode(code: string): Promise<string | null> {
  try {
    const response = await fetch(DASHBOARD_SIGN_IN_PATH, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
    });
    const body = (response.ok ? await response.json() : {}) as { apiKey?: unknown };
    return typeof body.apiKey === 'string' && body.apiKey.trim() !== '' ? body.apiKey : null;
  } catch {
    return null;
  }
}
