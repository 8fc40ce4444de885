import { importPackage } from './import-package.js';

/** Colour functions. Plain identity when colour is off, so chalk is loaded only when it is on. */
export interface Style {
  enabled: boolean;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  /** `text` in a colour given as #rrggbb (the terminal's nearest, at the level chalk is set to). */
  hex(colour: string, text: string): string;
  /** `text` in exactly #rrggbb (24-bit), for a swatch that must show the colour itself. */
  truecolor(colour: string, text: string): string;
}

const identity = (text: string): string => text;

export const plainStyle: Style = {
  enabled: false,
  red: identity,
  green: identity,
  yellow: identity,
  cyan: identity,
  dim: identity,
  bold: identity,
  hex: (_colour, text) => text,
  truecolor: (_colour, text) => text,
};

/**
 * The style for a stream where colour is `enabled`, as io.ts decides it. With `manyColours`
 * (the terminal says it has 256), `hex` uses them: 16 colours turn most browns red.
 */
export async function loadStyle(enabled: boolean, manyColours = false): Promise<Style> {
  if (!enabled) return plainStyle;
  const { Chalk } = await importPackage('chalk');
  // chalk does not read NO_COLOR itself; the level follows our own rules (see io.ts).
  const chalk = new Chalk({ level: 1 });
  const rich = manyColours ? new Chalk({ level: 2 }) : chalk;
  const exact = new Chalk({ level: 3 });
  return {
    enabled: true,
    red: (text) => chalk.red(text),
    green: (text) => chalk.green(text),
    yellow: (text) => chalk.yellow(text),
    cyan: (text) => chalk.cyan(text),
    dim: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
    hex: (colour, text) => rich.hex(colour)(text),
    truecolor: (colour, text) => exact.hex(colour)(text),
  };
}
