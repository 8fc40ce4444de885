import { COMPLETABLE_ID, caseTable, sq } from './scripts.js';
import type { CompletionNode } from './tree.js';

/** What the tables hold where a folder is expected. */
const DIRECTORIES = '%directories';

/**
 * Bash: tables per command path, then one completer. Ids are plain (bash has no place for a
 * description). Its variables avoid zsh's special names, as zsh users once loaded it too.
 */
export function bashScript(nodes: CompletionNode[]): string {
  const subcommands = caseTable('_reportctl_subcommands', nodes.map((node) => [node.path, node.subcommands.map((sub) => sub.name).join(' ')]));
  // A verb or one of its aliases (templates show, rm) names the same command.
  const verbs = caseTable(
    '_reportctl_verb',
    nodes.flatMap((node) => node.subcommands.flatMap((sub) => [sub.name, ...sub.aliases].map((word): [string, string] => [`${node.path}|${word}`, sub.name]))),
  );
  const flags = caseTable('_reportctl_flags', nodes.map((node) => [node.path, node.flags.map((flag) => flag.name).join(' ')]));
  const valueFlags = caseTable(
    '_reportctl_value_flags',
    nodes.map((node) => [node.path, node.flags.filter((flag) => flag.takesValue).map((flag) => flag.name).join(' ')]),
  );
  const choiceRows: [string, string][] = [];
  for (const node of nodes) {
    for (const flag of node.flags) {
      if (flag.choices.length > 0) choiceRows.push([`${node.path}|${flag.name}`, flag.choices.join(' ')]);
      if (flag.ids) choiceRows.push([`${node.path}|${flag.name}`, `@${flag.ids}`]);
      if (flag.directory) choiceRows.push([`${node.path}|${flag.name}`, DIRECTORIES]);
    }
  }
  const choices = caseTable('_reportctl_choices', choiceRows);
  const first = caseTable(
    '_reportctl_first_argument',
    nodes.map((node) => {
      const argument = node.arguments[0];
      if (argument?.directory) return [node.path, DIRECTORIES];
      return [node.path, argument?.ids ? `@${argument.ids}` : (argument?.choices ?? []).join(' ')];
    }),
  );
  return `# bash completion for reportctl (generated from the command tree: reportctl completion bash)
# Load it with:  source <(reportctl completion bash)
${subcommands}
${verbs}
${flags}
${valueFlags}
${choices}
${first}
_reportctl_ids() {
  # Ids from the service with the profile's key; silent and quick on any failure.
  command reportctl __complete "$1" 2>/dev/null
}
_reportctl_reply() {
  # Offers the lines of stdin that are plain ids and start with $1. Never compgen -W here: it
  # expands $(…) and backticks in its word list, and these lines come from the service.
  local line pattern=${sq(COMPLETABLE_ID.source)}
  COMPREPLY=()
  while IFS= read -r line; do
    [[ "$line" =~ $pattern && "$line" == "$1"* ]] && COMPREPLY+=("$line")
  done
  return 0
}
_reportctl_offer() {
  # $1: the words to offer (static, from the tables above), @kind for ids from the service, or
  # ${DIRECTORIES} for folders.
  if [[ "$1" == ${DIRECTORIES} ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -d -- "$2")
  elif [[ "$1" == @* ]]; then
    _reportctl_reply "$2" < <(_reportctl_ids "\${1#@}")
  elif [[ -n "$1" ]]; then
    COMPREPLY=($(compgen -W "$1" -- "$2"))
  else
    COMPREPLY=()
  fi
}
_reportctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" command_path="" word i skip=0 arguments=0 values= verb
  ((COMP_CWORD > 0)) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      --) break ;;
      -*=*) continue ;;
      -*)
        case " $(_reportctl_value_flags "$command_path") $(_reportctl_value_flags '') " in *" $word "*) skip=1 ;; esac
        continue ;;
    esac
    verb="$(_reportctl_verb "$command_path|$word")"
    if [[ -n "$verb" ]]; then command_path="\${command_path:+$command_path }$verb"; else ((arguments++)); fi
  done
  if [[ "$prev" == -* ]]; then
    case " $(_reportctl_value_flags "$command_path") $(_reportctl_value_flags '') " in
      *" $prev "*)
        values="$(_reportctl_choices "$command_path|$prev")"
        [[ -z "$values" ]] && values="$(_reportctl_choices "|$prev")"
        _reportctl_offer "$values" "$cur"
        return 0 ;;
    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_reportctl_flags "$command_path") $(_reportctl_flags '')" -- "$cur"))
    return 0
  fi
  local subs
  subs="$(_reportctl_subcommands "$command_path")"
  if [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  fi
  ((arguments == 0)) && values="$(_reportctl_first_argument "$command_path")"
  _reportctl_offer "$values" "$cur"
}
complete -o default -F _reportctl reportctl
`;
}

