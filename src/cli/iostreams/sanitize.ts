/**
 * Text that came from a service, made safe for a terminal or a tab-separated line. A hostile
 * or intercepted service could otherwise retitle the terminal (OSC 0), clear it (CSI 2J),
 * hide links (OSC 8), forge output with a carriage return, or make two names look alike
 * with characters that print as nothing or reorder the line. --json output is not passed
 * through here: it stays the service's JSON, where JSON itself escapes C0.
 */

// C0, DEL and C1: every code point a terminal may act on rather than show. Then the format
// characters (Cf: bidi overrides and isolates, zero-width spaces and joiners, word joiner,
// byte order mark, tag characters, soft hyphen) and the line and paragraph separators, which
// a terminal shows as nothing or as a reordering: `keep-me` and `keep-me` + U+200B would look
// the same in a plan line.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]|[\p{Cf}\p{Zl}\p{Zp}]/gu;
const JSON_UNESCAPED_CONTROL = /[\u007f-\u009f]|[\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * The shape of the service's ids (UUIDs, preset slugs). An id outside it is refused rather
 * than printed or used: a script reads ids from stdout, and a shell completes them.
 */
export const SERVICE_ID = /^[A-Za-z0-9_-]{1,128}$/;

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/**
 * Every control character as a visible `\xHH` (ESC is `\x1b`, CSI `\x9b`, CR `\x0d`), and every
 * invisible format character as `\uHHHH` (`\u202e`, `\u200b`; `\u{e0041}` past the BMP); tab
 * and line feed become a space, so a value stays on its line and in its column.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    if (char === '\t' || char === '\n') return ' ';
    const code = char.codePointAt(0)!;
    return code <= 0x9f ? `\\x${hex(code, 2)}` : code <= 0xffff ? `\\u${hex(code, 4)}` : `\\u{${hex(code, 5)}}`;
  });
}

/**
 * JSON for a terminal: JSON.stringify leaves DEL, C1 and the invisible format characters raw
 * (JSON does not require escaping them), and some terminals act on UTF-8 encoded C1.
 * `\u009b` is the same JSON value; past the BMP, the two halves of the pair.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(JSON_UNESCAPED_CONTROL, (char) => Array.from({ length: char.length }, (_, i) => `\\u${hex(char.charCodeAt(i), 4)}`).join(''));
}
