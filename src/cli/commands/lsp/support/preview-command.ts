import type { PreviewWatch } from '../../templates/support/preview-watch/server.js';
import { filePath } from './uri.js';

/** The command an editor runs to see the open template's page. */
export const PREVIEW_COMMAND = 'reportctl.preview';

export interface PreviewAnswer {
  message: string;
  /** The page's address (one-time: it opens one browser tab), when one was started. */
  url?: string;
}

/**
 * The pages `reportctl.preview` starts: `templates preview FILE --watch`'s, one per file, in
 * this process. Asking again for a file starts its page afresh, since each URL opens once.
 */
export class PreviewPages {
  private readonly open = new Map<string, PreviewWatch>();

  constructor(private readonly now: () => number) {}

  async show(uri: unknown): Promise<PreviewAnswer> {
    const path = typeof uri === 'string' ? filePath(uri) : undefined;
    if (path === undefined) return { message: 'reportctl: the preview needs a saved template file (a file: URI)' };
    await this.open.get(path)?.close();
    this.open.delete(path);
    const { startPreviewWatch } = await import('../../templates/support/preview-watch/server.js');
    const watch = await startPreviewWatch({ file: path, now: this.now });
    this.open.set(path, watch);
    return { message: `reportctl: the page of ${path}, redrawn at every save: ${watch.url}`, url: watch.url };
  }

  async closeAll(): Promise<void> {
    const pages = [...this.open.values()];
    this.open.clear();
    await Promise.all(pages.map((page) => page.close()));
  }
}
