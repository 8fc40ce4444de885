import type { Command } from 'commander';
import type { CliDeps } from '../../context.js';
import type { Wrap } from '../../action.js';
import { registerAnalysesList } from './list.js';

export function registerAnalysesCommands(program: Command, deps: CliDeps, wrap: Wrap): void {
  const analyses = program.command('analyses').description('Analyses of lots (the results queue runs produce)');
  registerAnalysesList(analyses, deps, wrap);
}
