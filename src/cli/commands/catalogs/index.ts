import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerCatalogsReportTypes } from './report-types.js';
import { registerCatalogsStatistics } from './statistics.js';
import { registerCatalogsViDefaults } from './vi-defaults.js';

export function registerCatalogsCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const catalogs = program.command('catalogs').description('The values the service accepts');
  registerCatalogsReportTypes(catalogs, deps, wrap);
  registerCatalogsStatistics(catalogs, deps, wrap);
  registerCatalogsViDefaults(catalogs, deps, wrap);
}
