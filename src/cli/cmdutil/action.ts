import type { ExitCodeValue } from './errors.js';

/** Whatever a verb's action returns becomes the exit code (undefined means success). */
export type ActionResult = ExitCodeValue | void;

/** What `buildProgram` hands every `register…`: it routes a verb's result or error to one place. */
export type Wrap = <A extends unknown[]>(action: (...args: A) => Promise<ActionResult>) => (...args: A) => Promise<void>;
