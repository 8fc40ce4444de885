import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerConfigGet } from './get.js';
import { registerConfigList } from './list.js';
import { registerConfigSet } from './set.js';
import { registerConfigUse } from './use.js';

export function registerConfigCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const config = program
    .command('config')
    .description('Connection settings in named profiles');
  registerConfigGet(config, deps, wrap);
  registerConfigSet(config, deps, wrap);
  registerConfigList(config, deps, wrap);
  registerConfigUse(config, deps, wrap);
}
