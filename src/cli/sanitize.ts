/**
 * Text that came from a service, made safe for a terminal or a tab-separated line. A hostile
 * or intercepted service could otherwise retitle the terminal (OSC 0), clear it (CSI 2J),
 * hide links (OSC 8) or forge output with a carriage return. --json output is not passed
 * through here: it stays the service's JSON, where JSON itself escapes C0.
 */

// C0, DEL and C1: every code point a terminal may act on rather than show.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const JSON_UNESCAPED_CONTROL = /[\u007f-\u009f]/g;

/**
 * The shape of the service's ids (UUIDs, preset slugs). An id outside it is refused rather
 * than printed or used: a script reads ids from stdout, and a shell completes them.
 */
export const SERVICE_ID = /^[A-Za-z0-9_-]{1,128}$/;

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * Every control character as a visible `\xHH` (ESC is `\x1b`, CSI `\x9b`, CR `\x0d`); tab and
 * line feed become a space, so a value stays on its line and in its column.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => (char === '\t' || char === '\n' ? ' ' : `\\x${hex(char)}`));
}

/**
 * JSON for a terminal: JSON.stringify leaves DEL and C1 raw (JSON does not require escaping
 * them), and some terminals act on UTF-8 encoded C1. `\u009b` is the same JSON value.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROL, (char) => `\\u00${hex(char)}`);
}
