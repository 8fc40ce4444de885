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
};

export async function loadStyle(enabled: boolean): Promise<Style> {
  if (!enabled) return plainStyle;
  const { Chalk } = await importPackage('chalk');
  // chalk does not read NO_COLOR itself; the level follows our own rules (see io.ts).
  const chalk = new Chalk({ level: 1 });
  return {
    enabled: true,
    red: (text) => chalk.red(text),
    green: (text) => chalk.green(text),
    yellow: (text) => chalk.yellow(text),
    cyan: (text) => chalk.cyan(text),
    dim: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
  };
}
