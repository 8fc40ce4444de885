import { DYNAMIC_FLAGS, type CompletionNode } from './tree.js';

/**
 * The only ids completion hands to a shell. They come from the service, which may be hostile
 * or intercepted: anything else (`$(…)`, backticks, quotes, spaces, control characters) is
 * dropped, never offered. Service ids are UUIDs and preset ids are slugs; both fit. The
 * scripts check it again, so an older `reportctl` on PATH cannot undo it.
 */
export const COMPLETABLE_ID = /^[A-Za-z0-9_-]{1,128}$/;

const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function caseTable(name: string, rows: [string, string][]): string {
  const lines = rows.filter(([, value]) => value !== '').map(([key, value]) => `    ${sq(key)}) echo ${sq(value)} ;;`);
  return `${name}() {\n  case "$1" in\n${lines.join('\n')}\n  esac\n}`;
}

/**
 * Bash (and zsh through bashcompinit): tables per command path, then one completer. Its
 * variables avoid zsh's special names (a local `path` would empty zsh's PATH).
 */
export function bashScript(nodes: CompletionNode[]): string {
  const subcommands = caseTable('_reportctl_subcommands', nodes.map((node) => [node.path, node.subcommands.map((sub) => sub.name).join(' ')]));
  const flags = caseTable('_reportctl_flags', nodes.map((node) => [node.path, node.flags.map((flag) => flag.name).join(' ')]));
  const valueFlags = caseTable(
    '_reportctl_value_flags',
    nodes.map((node) => [node.path, node.flags.filter((flag) => flag.takesValue).map((flag) => flag.name).join(' ')]),
  );
  const choiceRows: [string, string][] = [];
  for (const node of nodes) {
    for (const flag of node.flags) {
      if (flag.choices.length > 0) choiceRows.push([`${node.path}|${flag.name}`, flag.choices.join(' ')]);
      const dynamic = DYNAMIC_FLAGS[flag.name];
      if (dynamic) choiceRows.push([`${node.path}|${flag.name}`, `@${dynamic}`]);
    }
  }
  const choices = caseTable('_reportctl_choices', choiceRows);
  const dynamic = caseTable('_reportctl_dynamic', nodes.filter((node) => node.dynamic).map((node) => [node.path, node.dynamic!]));
  return `# bash completion for reportctl (generated from the command tree: reportctl completion bash)
# Load it with:  source <(reportctl completion bash)
${subcommands}
${flags}
${valueFlags}
${choices}
${dynamic}
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
_reportctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" command_path="" word i skip=0
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
    case " $(_reportctl_subcommands "$command_path") " in *" $word "*) command_path="\${command_path:+$command_path }$word" ;; esac
  done
  if [[ "$prev" == -* ]]; then
    case " $(_reportctl_value_flags "$command_path") $(_reportctl_value_flags '') " in
      *" $prev "*)
        local values
        values="$(_reportctl_choices "$command_path|$prev")"
        [[ -z "$values" ]] && values="$(_reportctl_choices "|$prev")"
        if [[ "$values" == @* ]]; then
          _reportctl_reply "$cur" < <(_reportctl_ids "\${values#@}")
        elif [[ -n "$values" ]]; then
          COMPREPLY=($(compgen -W "$values" -- "$cur"))
        else
          COMPREPLY=()
        fi
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
  local kind
  kind="$(_reportctl_dynamic "$command_path")"
  if [[ -n "$kind" ]]; then
    _reportctl_reply "$cur" < <(_reportctl_ids "$kind")
    return 0
  fi
  COMPREPLY=()
}
complete -o default -F _reportctl reportctl
`;
}

/** Zsh runs the bash completer through bashcompinit: one tree, one behaviour. */
export function zshScript(nodes: CompletionNode[]): string {
  return `#compdef reportctl
# zsh completion for reportctl (generated: reportctl completion zsh)
# Load it with:  source <(reportctl completion zsh)   (after compinit)
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes).split('\n').slice(2).join('\n')}`;
}

const fq = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function fishScript(nodes: CompletionNode[]): string {
  const root = nodes.find((node) => node.path === '')!;
  const lines: string[] = [
    '# fish completion for reportctl (generated: reportctl completion fish)',
    '# Load it with:  reportctl completion fish | source',
    'function __reportctl_subcommands',
    '    switch "$argv[1]"',
    ...nodes
      .filter((node) => node.subcommands.length > 0)
      .map((node) => `        case ${fq(node.path)}\n            printf '%s\\n' ${node.subcommands.map((sub) => fq(sub.name)).join(' ')}`),
    '    end',
    'end',
    'function __reportctl_value_flags',
    '    switch "$argv[1]"',
    ...nodes
      .filter((node) => node.flags.some((flag) => flag.takesValue))
      .map(
        (node) =>
          `        case ${fq(node.path)}\n            printf '%s\\n' ${node.flags
            .filter((flag) => flag.takesValue)
            .map((flag) => fq(flag.name))
            .join(' ')}`,
      ),
    '    end',
    'end',
    'function __reportctl_path',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    "    set -l path ''",
    '    set -l skip 0',
    '    for word in $words',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    "            case '--'",
    '                break',
    "            case '-*=*'",
    '                continue',
    "            case '-*'",
    "                if contains -- $word (__reportctl_value_flags \"$path\") (__reportctl_value_flags '')",
    '                    set skip 1',
    '                end',
    '                continue',
    '        end',
    '        if contains -- $word (__reportctl_subcommands "$path")',
    '            if test -z "$path"',
    '                set path $word',
    '            else',
    '                set path "$path $word"',
    '            end',
    '        end',
    '    end',
    '    echo $path',
    'end',
    'function __reportctl_at',
    '    test (count $argv) -eq 1; or return 1',
    '    set -l here (__reportctl_path)',
    '    test "$here" = "$argv[1]"',
    'end',
    'function __reportctl_ids',
    '    # Ids from the service; only plain ids are offered, whatever printed them.',
    `    command reportctl __complete $argv[1] 2>/dev/null | string match -r -- ${fq(COMPLETABLE_ID.source)}`,
    'end',
    'complete -c reportctl -f',
  ];
  for (const flag of root.flags) {
    lines.push(`complete -c reportctl -l ${flag.name.slice(2)}${flag.takesValue ? ' -r' : ''} -d ${fq(flag.description)}`);
  }
  for (const node of nodes) {
    const at = `-n ${fq(`__reportctl_at ${fq(node.path)}`)}`;
    for (const sub of node.subcommands) lines.push(`complete -c reportctl ${at} -a ${fq(sub.name)} -d ${fq(sub.description)}`);
    if (node.path === '') continue;
    for (const flag of node.flags) {
      let values = '';
      if (flag.choices.length > 0) values = ` -x -a ${fq(flag.choices.join(' '))}`;
      else if (DYNAMIC_FLAGS[flag.name]) values = ` -x -a ${fq(`(__reportctl_ids ${DYNAMIC_FLAGS[flag.name]})`)}`;
      else if (flag.takesValue) values = ' -r -F';
      lines.push(`complete -c reportctl ${at} -l ${flag.name.slice(2)}${values} -d ${fq(flag.description)}`);
    }
    if (node.dynamic) lines.push(`complete -c reportctl ${at} -x -a ${fq(`(__reportctl_ids ${node.dynamic})`)}`);
  }
  return lines.join('\n') + '\n';
}
