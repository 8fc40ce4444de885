import type { CliDeps } from '../../cmdutil/context.js';
import { addListOptions } from '../../output/list-options.js';
import type { Wrap } from '../../cmdutil/action.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';
import { presetColumns } from './support/columns.js';
import { printList } from '../../output/list-output.js';

const verb = (parent: Parent) =>
  addListOptions(parent.command('presets').description('List starter templates (use one with `templates create --from-preset ID`)'))
    .addHelpText('after', '\nExamples:\n  $ reportctl templates presets\n  $ reportctl templates presets --json');
export type TemplatesPresetsOptions = OptionsOf<typeof verb>;

export function registerTemplatesPresets(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesPresetsOptions> = (options) => runTemplatesPresets(options, deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesPresets(options: TemplatesPresetsOptions, deps: CliDeps): Promise<void> {
  const session = await deps.api(options);
  await printList(
    deps,
    options,
    { listing: session.api.presets, query: {}, noun: 'presets' },
    presetColumns,
  );
}
