import { type IOStreams } from './io.js';

// Colours take no room on screen.
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

/**
 * Frames drawn in place on a terminal: the cursor goes up to the first row of the previous
 * frame and draws the next one over it, so the scrollback keeps no earlier frame. The rows a frame took are counted at the terminal's width now: a line wider
 * than the terminal (after a resize made it narrower) wraps onto more rows. A frame taller
 * than the terminal would push its top into the scrollback, where the cursor cannot go back:
 * `rows()` is the most a frame may take (undefined when the terminal does not say).
 */
export function inPlace(io: IOStreams) {
  const out = io.stdout;
  let drawn: number[] = [];
  return {
    rows: (): number | undefined => (out.rows !== undefined && out.rows > 2 ? out.rows - 1 : undefined),
    draw(lines: readonly string[]): void {
      const width = io.terminalWidth();
      const up = drawn.reduce((sum, length) => sum + Math.max(1, Math.ceil(length / width)), 0);
      // Each row is cleared as it is drawn, and only what is left below the frame at the end:
      // a clear from the top-left corner is a clear of the whole screen, which tmux (and some
      // terminals) first copy into the scrollback.
      // The first frame has nothing under it to clear.
      out.write(up > 0 ? `\u001b[${up}A\r${lines.map((line) => `\u001b[2K${line}\n`).join('')}\u001b[J` : lines.map((line) => `${line}\n`).join(''));
      drawn = lines.map((line) => line.replace(SGR, '').length);
    },
  };
}
