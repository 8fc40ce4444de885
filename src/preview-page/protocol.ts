// What the preview's server (src/cli/commands/templates/support/preview-watch/) sends the page:
// types only, shared by both sides so that neither can change the events alone.
import type { ValidationIssue } from '../contract/index.js';

export type Orientation = 'portrait' | 'landscape';

/** The file is a valid template: its page, in each orientation drawn. */
export interface PictureEvent {
  kind: 'picture';
  file: string;
  /** When the save was checked, in milliseconds since the epoch (the server's clock). */
  checkedAt: number;
  name: string;
  pages: { orientation: Orientation; svg: string }[];
  /** What the page shows in red (overlaps, elements off the page): drawn all the same. */
  problems: string[];
}

/** The file is not a valid template (or not JSON, not UTF-8, not there): why, as validate says it. */
export interface DiagnosticsEvent {
  kind: 'diagnostics';
  checkedAt: number;
  verdict: { file: string; valid: boolean; issues: readonly ValidationIssue[]; reason?: string };
  hints: string[];
}

export type PreviewEvent = PictureEvent | DiagnosticsEvent;
