import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerAnalysesList } from './list.js';

export function registerAnalysesCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const analyses = program.command('analyses').description('Analyses of lots (the results queue runs produce)');
  registerAnalysesList(analyses, deps, wrap);
}
