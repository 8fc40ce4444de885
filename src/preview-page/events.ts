export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * The events of a text/event-stream body, as EventSource reads them, for a stream fetched with
 * an Authorization header (which EventSource cannot send). Resolves when the stream ends.
 */
export async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: ServerEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    // A large event comes in many reads: look for its end only in what is new.
    let from = Math.max(0, buffer.length - 1);
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n', from); end >= 0; end = buffer.indexOf('\n\n', from)) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      from = 0;
      if (event) onEvent(event);
    }
  }
}

function parseEvent(block: string): ServerEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { event, data: data.join('\n') } : undefined;
}
