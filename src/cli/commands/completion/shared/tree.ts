import type { Command, Option } from 'commander';

/** What completion needs to know of one command: its path, subcommands and flags. */
export interface CompletionNode {
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  flags: { name: string; description: string; takesValue: boolean; choices: readonly string[] }[];
  /** Positional arguments completed from the service (template or run ids). */
  dynamic?: 'template-ids' | 'run-ids' | 'preset-ids';
}

const DYNAMIC: Record<string, CompletionNode['dynamic']> = {
  'templates get': 'template-ids',
  'templates replace': 'template-ids',
  'templates edit': 'template-ids',
  'templates delete': 'template-ids',
  'queue-runs get': 'run-ids',
  'queue-runs watch': 'run-ids',
};
const DYNAMIC_FLAGS: Record<string, CompletionNode['dynamic']> = { '--from-preset': 'preset-ids' };
export { DYNAMIC_FLAGS };

function flagsOf(command: Command): CompletionNode['flags'] {
  const options = (command as unknown as { options: Option[] }).options;
  return options
    .filter((option) => !option.hidden && option.long !== undefined)
    .map((option) => ({
      name: option.long!,
      description: option.description,
      takesValue: option.required || option.optional,
      choices: option.argChoices ?? [],
    }));
}

/** Every command of the tree, depth first, the root first (path ""). Hidden commands are left out. */
export function completionTree(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
    const node: CompletionNode = {
      path,
      description: command.description(),
      subcommands: visible.map((sub) => ({ name: sub.name(), description: sub.description() })),
      flags: [...flagsOf(command), { name: '--help', description: 'show help', takesValue: false, choices: [] }],
    };
    const dynamic = DYNAMIC[path];
    if (dynamic) node.dynamic = dynamic;
    nodes.push(node);
    for (const sub of visible) visit(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(root, '');
  return nodes;
}
