import { COMPLETABLE_ID, ID_LABELS, sq } from './scripts.js';
import type { CompletionFlag, CompletionNode, CompletionValue } from './tree.js';

/** `_arguments` reads `[explanation]` up to an unescaped bracket and a message up to a colon. */
const explanation = (text: string) => text.replace(/[\\[\]]/g, (char) => `\\${char}`);
const message = (text: string) => text.replace(/[\\:]/g, (char) => `\\${char}`);
/** An item for `_describe`: the first unescaped colon ends the value; backslashes escape. */
const describeItem = (value: string, note: string | undefined) => sq(note ? `${message(value)}:${note.replace(/\\/g, '\\\\')}` : message(value));

const list = (name: string, items: string[]) => `      ${name}=(\n        ${items.join('\n        ')}\n      )`;

function functionName(path: string): string {
  return path === '' ? '_reportctl' : `_reportctl__${path.replace(/ /g, '__').replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** A value's `_arguments` action, or a state when the node lists its choices itself. */
function action(value: CompletionValue, state: string | undefined): string {
  if (value.ids) return `_reportctl_ids ${value.ids}`;
  if (value.choices.length > 0) return state ? `->${state}` : `(${value.choices.join(' ')})`;
  if (value.directory) return '_files -/';
  return value.file ? '_files' : ' ';
}

/** `--flag=[…]` takes its value in the next word or after `=`, as commander does. */
const flagSpec = (flag: CompletionFlag) => `${flag.name}${flag.takesValue ? '=' : ''}[${explanation(flag.description)}]`;

function choicesCase(state: string, value: CompletionValue): string {
  const items = value.choices.map((choice) => describeItem(choice, value.notes[choice]));
  return `    (${state})\n${list('values', items)}\n      _describe -t values ${sq(message(value.placeholder))} values && ret=0 ;;`;
}

function nodeFunction(node: CompletionNode, byPath: Map<string, CompletionNode>): string {
  const specs: string[] = [];
  const states: string[] = [];
  // The root's flags are global: every function adds them through _reportctl_globals.
  for (const flag of node.path === '' ? node.flags.filter((flag) => flag.name === '--help') : node.flags) {
    let spec = flagSpec(flag);
    if (flag.takesValue) {
      const state = `flag${flag.name}`;
      spec += `:${message(flag.placeholder)}:${action(flag, state)}`;
      if (flag.choices.length > 0) states.push(choicesCase(state, flag));
    }
    specs.push(sq(spec));
  }
  node.arguments.forEach((argument, index) => {
    const state = `argument-${index + 1}`;
    const position = argument.variadic ? '*' : `${index + 1}`;
    const colons = argument.required || argument.variadic ? ':' : '::';
    specs.push(sq(`${position}${colons}${message(argument.placeholder)}:${action(argument, state)}`));
    if (argument.choices.length > 0) states.push(choicesCase(state, argument));
  });
  const locals = ['reply', 'values'];
  if (node.subcommands.length > 0) {
    locals.push('commands');
    specs.push(sq(': :->command'), sq('*:: :->argument'));
    const commands = node.subcommands.map((sub) => describeItem(sub.name, sub.description));
    const label = node.path === '' ? 'command' : `${node.path} command`;
    states.push(`    (command)\n${list('commands', commands)}\n      _describe -t commands ${sq(label)} commands && ret=0 ;;`);
    const dispatch = node.subcommands.map((sub) => {
      const child = byPath.get(node.path === '' ? sub.name : `${node.path} ${sub.name}`)!;
      return `        (${[sub.name, ...sub.aliases].join('|')}) ${functionName(child.path)} && ret=0 ;;`;
    });
    states.push(
      [
        '    (argument)',
        `      curcontext=\${curcontext%:*:*}:reportctl-\${words[1]}:`,
        '      case $words[1] in',
        ...dispatch,
        '      esac ;;',
      ].join('\n'),
    );
  }
  return [
    `${functionName(node.path)}() {`,
    '  local curcontext=$curcontext state state_descr line ret=1',
    '  local -A opt_args',
    `  local -a ${locals.join(' ')}`,
    '  _reportctl_globals',
    `  _arguments -C -S "\${reply[@]}" \\\n    ${specs.join(' \\\n    ')} && ret=0`,
    ...(states.length > 0 ? ['  case $state in', ...states, '  esac'] : []),
    '  return ret',
    '}',
  ].join('\n');
}

/**
 * Native zsh: a function per command with `_arguments`, so commands, flags and enum values
 * come with their descriptions, and ids with their names. It works from $fpath (autoloaded as
 * `_reportctl`) and sourced after compinit.
 */
export function zshScript(nodes: CompletionNode[]): string {
  const byPath = new Map(nodes.map((node) => [node.path, node]));
  const names = new Set(nodes.map((node) => functionName(node.path)));
  if (names.size !== nodes.length) throw new Error('two commands map to one zsh function name');
  const root = byPath.get('')!;
  const globals = root.flags
    .filter((flag) => flag.name !== '--help')
    .map((flag) => `    ${sq(`${flagSpec(flag)}${flag.takesValue ? `:${message(flag.placeholder)}:${action(flag, undefined)}` : ''}`)}`);
  const labels = Object.entries(ID_LABELS).map(([kind, label]) => `    (${kind}) label=${sq(label)} ;;`);
  return `#compdef reportctl
# zsh completion for reportctl (generated from the command tree: reportctl completion zsh)
# Install it as _reportctl in a directory on $fpath (before compinit), or load it with
#   source <(reportctl completion zsh)   (after compinit)
_reportctl_globals() {
  reply=(
${globals.join('\n')}
  )
}
_reportctl_ids() {
  # Ids from the service with their names. Only plain ids are offered; a name is shown, never
  # evaluated, with control characters as '?' (an older reportctl may print them raw).
  # _arguments puts compadd options first; the kind of id is the last argument.
  local kind=\${argv[-1]} line id name label pattern=${sq(COMPLETABLE_ID.source)}
  local -a described
  case $kind in
${labels.join('\n')}
    (*) return 1 ;;
  esac
  while IFS= read -r line; do
    id=\${line%%$'\\t'*}
    [[ $id =~ $pattern ]] || continue
    name=
    [[ $line == *$'\\t'* ]] && name=\${line#*$'\\t'}
    name=\${name//[[:cntrl:]]/?}
    # _describe reads backslash escapes in its items: a backslash in a name must stay one.
    name=\${name//\\\\/\\\\\\\\}
    if [[ -n $name ]]; then described+=("\${id//:/\\\\:}:$name"); else described+=("$id"); fi
  done < <(command reportctl __complete $kind --names 2>/dev/null)
  _describe -t ids $label described
}
${nodes.map((node) => nodeFunction(node, byPath)).join('\n')}
if [[ $funcstack[1] == _reportctl ]]; then
  # Autoloaded from $fpath: this file is the function's body, so complete now.
  _reportctl "$@"
else
  compdef _reportctl reportctl
fi
`;
}
