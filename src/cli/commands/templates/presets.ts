import type { Command } from 'commander';
import type { CliDeps, GlobalOptions } from '../../context.js';
import { addListOptions, type ListOptions } from '../../list-options.js';
import type { Wrap } from '../../action.js';
import { presetColumns } from './shared/columns.js';

export function registerTemplatesPresets(parent: Command, deps: CliDeps, wrap: Wrap): void {
  addListOptions(parent.command('presets').description('List starter templates (use one with `templates create --from-preset ID`)'))
    .addHelpText('after', '\nExamples:\n  $ reportctl templates presets\n  $ reportctl templates presets --json')
    .action(wrap(async (_o: unknown, command: Command) => runTemplatesPresets(command.optsWithGlobals<GlobalOptions & ListOptions>(), deps)));
}

export async function runTemplatesPresets(options: GlobalOptions & ListOptions, deps: CliDeps): Promise<void> {
  const { printList } = await import('../../list-output.js');
  const session = await deps.api(options);
  await printList(
    deps,
    session,
    options,
    { listing: session.api.presets, query: {}, noun: 'presets' },
    presetColumns,
  );
}
