import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import { MAX_BODY_BYTES } from '../../../../contract/index.js';

/** Past this a file is not read for its name: memory stays bounded whatever sits in a folder. */
const MAX_READ_BYTES = 16 * MAX_BODY_BYTES;

interface KnownFile {
  mtimeMs: number;
  size: number;
  name: string | undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The template name a file's text holds, if it is JSON holding one. */
export function nameInText(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    const name = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { name?: unknown }).name : undefined;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The template names of the `*.json` files of folders, as `diff` and `apply` read a folder
 * (directly in it, no dotfiles): from the editor's text for an open file, from the disk for
 * the others, read again only when a file's size or time changes. A file that is not UTF-8,
 * not JSON or over 16 MiB holds no name.
 */
export class FolderNames {
  private readonly files = new Map<string, KnownFile>();
  /** Open files' names by the text they were read from: a text is parsed once, not once per sibling checked. */
  private readonly openNames = new Map<string, { text: string; name: string | undefined }>();

  constructor(private readonly root: () => string | undefined) {}

  /** For `file`: which other files of its folder hold `name`, as paths to show (relative to the workspace). */
  async clashesFor(file: string, openTexts: ReadonlyMap<string, string>): Promise<(name: string) => string[]> {
    const folder = dirname(file);
    let entries: string[];
    try {
      entries = (await readdir(folder)).filter((entry) => entry.endsWith('.json') && !entry.startsWith('.') && entry !== basename(file));
    } catch {
      entries = [];
    }
    const names = await Promise.all(
      entries.map(async (entry) => {
        const path = join(folder, entry);
        const open = openTexts.get(path);
        return { path, name: open !== undefined ? this.nameInOpen(path, open) : await this.nameOnDisk(path) };
      }),
    );
    return (name) => names.filter((entry) => entry.name === name).map((entry) => this.shown(entry.path));
  }

  private nameInOpen(path: string, text: string): string | undefined {
    const known = this.openNames.get(path);
    if (known?.text === text) return known.name;
    const name = nameInText(text);
    this.openNames.set(path, { text, name });
    return name;
  }

  /** An open file closed: its text is let go. */
  forget(path: string): void {
    this.openNames.delete(path);
  }

  private async nameOnDisk(path: string): Promise<string | undefined> {
    try {
      const status = await stat(path);
      if (!status.isFile() || status.size > MAX_READ_BYTES) return undefined;
      const known = this.files.get(path);
      if (known && known.mtimeMs === status.mtimeMs && known.size === status.size) return known.name;
      const name = nameInText(strictUtf8.decode(await readFile(path)));
      this.files.set(path, { mtimeMs: status.mtimeMs, size: status.size, name });
      return name;
    } catch {
      this.files.delete(path);
      return undefined;
    }
  }

  /** A path as `templates validate` run from the workspace's root would name it. */
  private shown(path: string): string {
    const root = this.root();
    if (root === undefined) return path;
    const inside = relative(root, path);
    return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
  }
}
