import type { ServerResponse } from 'node:http';
import type { PreviewState } from './check.js';

/** Pages open at once: one more closes the oldest, so forgotten tabs cannot pile up. */
export const MAX_STREAMS = 8;
/** A comment this often keeps an idle stream open through anything that times connections out. */
const KEEP_ALIVE_MS = 15_000;

/** One server-sent event: its JSON on one data line (JSON.stringify writes no raw line break). */
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The pages' event streams. What a page needs is at most two events, the last good picture and,
 * while the file is not a valid template, its diagnostics: those are all that is kept, and a
 * page that connects gets them first. A page that reads slower than the file is saved gets the
 * newest of them once it catches up, never a queue of every save.
 */
export class PreviewStreams {
  private picture: string | undefined;
  private diagnostics: string | undefined;
  private readonly streams = new Set<EventStream>();
  private readonly keepAlive = setInterval(() => {
    for (const stream of this.streams) stream.send(': keep-alive\n\n');
  }, KEEP_ALIVE_MS).unref();

  publish(state: PreviewState): void {
    const event = frame(state.kind, state);
    if (state.kind === 'picture') [this.picture, this.diagnostics] = [event, undefined];
    else this.diagnostics = event;
    for (const stream of this.streams) stream.send(event);
  }

  open(response: ServerResponse): void {
    const oldest = this.streams.size >= MAX_STREAMS ? this.streams.values().next().value : undefined;
    if (oldest) {
      oldest.end();
      this.streams.delete(oldest);
    }
    // Connection: close, so that a stream the server ends takes its socket with it.
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
    const stream = new EventStream(response, () => this.snapshot());
    this.streams.add(stream);
    response.on('close', () => this.streams.delete(stream));
    stream.send(this.snapshot());
  }

  /** Says `stopped` to every page and ends its stream. */
  close(): void {
    clearInterval(this.keepAlive);
    for (const stream of this.streams) stream.end(frame('stopped', {}));
    this.streams.clear();
  }

  private snapshot(): string {
    return (this.picture ?? '') + (this.diagnostics ?? '');
  }
}

class EventStream {
  /** Events were left out while the socket was full: the snapshot goes once it drains. */
  private behind = false;

  constructor(
    private readonly response: ServerResponse,
    snapshot: () => string,
  ) {
    response.on('drain', () => {
      if (!this.behind) return;
      this.behind = false;
      this.send(snapshot());
    });
  }

  send(text: string): void {
    if (this.behind || this.response.writableEnded) return;
    if (this.response.writableNeedDrain) this.behind = true;
    else this.response.write(text);
  }

  end(text = ''): void {
    if (!this.response.writableEnded) this.response.end(text);
  }
}
