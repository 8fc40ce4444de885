import { createRequire } from 'node:module';
import type * as Inquirer from '@inquirer/prompts';
import type * as Chalk from 'chalk';
import type * as Conf from 'conf';
import type * as Ora from 'ora';

/** The packages that are ES modules only, so CommonJS can load them only with import(). */
interface EsmPackages {
  '@inquirer/prompts': typeof Inquirer;
  chalk: typeof Chalk;
  conf: typeof Conf;
  ora: typeof Ora;
}

/**
 * import() of an ESM-only package. The build keeps this module in a file of its own
 * (dist/import-package.cjs): the CLI's file may be compiled from V8's code cache, and there
 * import() finds no loader to call (see bin/reportctl.js); from a file Node loaded, it does.
 */
export function importPackage<Name extends keyof EsmPackages>(name: Name): Promise<EsmPackages[Name]> {
  return import(name) as Promise<EsmPackages[Name]>;
}

/** A file of the jq-web package (jq compiled to WebAssembly), found as Node's loader would find it. */
export function jqWebFile(file: 'jq.js' | 'jq.wasm'): string {
  return createRequire(__filename).resolve(`jq-web/${file}`);
}
