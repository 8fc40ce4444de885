import { InvalidArgumentError } from './typed-commander.js';

/** A commander argParser for a whole number in [min, max]; the message names the value. */
export function integerOption(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^-?\d+$/.test(text.trim()) || value < min || value > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}.`);
    }
    return value;
  };
}

/** A commander argParser for a positive number of seconds (decimals allowed). */
export function secondsOption(min = 0) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < min) {
      throw new InvalidArgumentError(`expected a number of seconds${min > 0 ? ` of at least ${min}` : ''}.`);
    }
    return value;
  };
}

/** A flag given any number of times: every value, in order. */
export function repeatable(value: string, previous: string[]): string[] {
  return [...previous, value];
}
