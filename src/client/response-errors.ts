import { ApiResponseError } from './errors.js';
import type { ApiResult } from './options.js';
import { conforms, shapes } from './response-validation.js';

/** A 3xx or an error status as an ApiResponseError, with the service's code and message when it sent them. */
export async function toApiError(result: ApiResult, method: string): Promise<ApiResponseError> {
  if (result.status < 400) {
    const location = result.headers.location;
    const message = `the service answered ${result.status}, a redirect${location ? ` to ${location}` : ''}; reportctl does not follow redirects`;
    return new ApiResponseError(result.status, `HTTP_${result.status}`, message, [], method, result.url);
  }
  const body = await conforms(shapes.errorBody, result.body);
  if (body.success) {
    return new ApiResponseError(result.status, body.data.error, body.data.message, body.data.issues ?? [], method, result.url);
  }
  const text = typeof result.body === 'string' ? describeForeignBody(result.body, result.headers['content-type']) : '';
  return new ApiResponseError(result.status, `HTTP_${result.status}`, text || `HTTP ${result.status}`, [], method, result.url);
}

/**
 * An error body that is not the service's JSON (a proxy's HTML page, plain text), as one
 * short line: a page's title, not its markup.
 */
function describeForeignBody(text: string, contentType = ''): string {
  if (/html/i.test(contentType) || /^\s*</.test(text)) {
    const heading = /<title[^>]*>([^<]*)</i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)</i.exec(text)?.[1] ?? '';
    // eslint-disable-next-line no-control-regex
    const title = heading.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').replace(/^\d{3}\s+/, '').trim();
    return `${title ? `${title.slice(0, 100)}: ` : ''}an HTML page, not the service's JSON (a proxy or gateway in the way?)`;
  }
  // Control characters too: a stranger's body must not drive the user's terminal.
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
