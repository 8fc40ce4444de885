import type { Argument, CommandUnknownOpts as Command, Option } from '../../../cmdutil/typed-commander.js';
import { choiceNotes, type ChoiceNotes } from '../../../cmdutil/choice-notes.js';

export type IdKind = 'template-ids' | 'run-ids' | 'preset-ids';

/** A value a flag or argument takes: its placeholder, its fixed choices (with their notes), or ids. */
export interface CompletionValue {
  placeholder: string;
  choices: readonly string[];
  notes: ChoiceNotes;
  /** Completed from the service (template, run or preset ids). */
  ids?: IdKind;
  /** The value names a file. */
  file: boolean;
  /** The value names a folder. */
  directory: boolean;
}

export interface CompletionFlag extends CompletionValue {
  name: string;
  description: string;
  takesValue: boolean;
}

export interface CompletionArgument extends CompletionValue {
  description: string;
  required: boolean;
  variadic: boolean;
}

/** What completion needs to know of one command: its path, subcommands, flags and arguments. */
export interface CompletionNode {
  path: string;
  description: string;
  subcommands: { name: string; aliases: string[]; description: string }[];
  flags: CompletionFlag[];
  arguments: CompletionArgument[];
}

/** Commands whose first argument is an id from the service. */
const DYNAMIC: Record<string, IdKind> = {
  'templates get': 'template-ids',
  'templates replace': 'template-ids',
  'templates edit': 'template-ids',
  'templates delete': 'template-ids',
  'templates preview': 'template-ids',
  'queue-runs get': 'run-ids',
  'queue-runs watch': 'run-ids',
};
const DYNAMIC_FLAGS: Record<string, IdKind> = { '--from-preset': 'preset-ids' };

const FILE_PLACEHOLDER = /^(path|file|files)$/;
const DIRECTORY_PLACEHOLDER = /^(dir|directory|folder)$/;

function valueOf(target: Option | Argument, placeholder: string, ids: IdKind | undefined): CompletionValue {
  const choices = target.argChoices ?? [];
  const free = choices.length === 0 && !ids;
  return {
    placeholder,
    choices,
    notes: choiceNotes(target),
    ...(ids ? { ids } : {}),
    file: free && FILE_PLACEHOLDER.test(placeholder),
    directory: free && DIRECTORY_PLACEHOLDER.test(placeholder),
  };
}

function flagsOf(command: Command): CompletionFlag[] {
  const options = (command as unknown as { options: Option[] }).options;
  return options
    .filter((option) => !option.hidden && option.long !== undefined)
    .map((option) => ({
      name: option.long!,
      description: option.description,
      takesValue: option.required || option.optional,
      ...valueOf(option, /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags)?.slice(1).find(Boolean) ?? 'value', DYNAMIC_FLAGS[option.long!]),
    }));
}

function argumentsOf(command: Command, path: string): CompletionArgument[] {
  return command.registeredArguments.map((argument, index) => ({
    description: argument.description || argument.name(),
    required: argument.required,
    variadic: argument.variadic,
    ...valueOf(argument, argument.name(), index === 0 ? DYNAMIC[path] : undefined),
  }));
}

const HELP: CompletionFlag = { name: '--help', description: 'show help', takesValue: false, placeholder: '', choices: [], notes: {}, file: false, directory: false };

/** Every command of the tree, depth first, the root first (path ""). Hidden commands are left out. */
export function completionTree(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
    const node: CompletionNode = {
      path,
      description: command.description(),
      subcommands: visible.map((sub) => ({ name: sub.name(), aliases: sub.aliases(), description: sub.description() })),
      flags: [...flagsOf(command), HELP],
      arguments: argumentsOf(command, path),
    };
    nodes.push(node);
    for (const sub of visible) visit(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(root, '');
  return nodes;
}
