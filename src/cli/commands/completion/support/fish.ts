import { COMPLETABLE_ID } from './scripts.js';
import type { CompletionNode, CompletionValue } from './tree.js';

const fq = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A fish function that prints the lines of the case named by its first argument. */
function switchTable(name: string, rows: [key: string, lines: string[]][]): string[] {
  return [
    `function ${name}`,
    '    switch "$argv[1]"',
    ...rows.filter(([, lines]) => lines.length > 0).map(([key, lines]) => `        case ${fq(key)}\n            printf '%s\\n' ${lines.map(fq).join(' ')}`),
    '    end',
    'end',
  ];
}

/** Fixed choices print `value<TAB>note` (fish shows the note); ids come from the service. */
function valuesOf(key: string, value: CompletionValue): string | undefined {
  if (value.ids) return fq(`(__reportctl_ids ${value.ids})`);
  if (value.choices.length > 0) return fq(`(__reportctl_choices ${fq(key)})`);
  if (value.directory) return fq('(__fish_complete_directories)');
  return undefined;
}

export function fishScript(nodes: CompletionNode[]): string {
  const root = nodes.find((node) => node.path === '')!;
  const choiceRows: [string, string[]][] = [];
  const described = (value: CompletionValue) => value.choices.map((choice) => (value.notes[choice] ? `${choice}\t${value.notes[choice]}` : choice));
  for (const node of nodes) {
    for (const flag of node.flags) choiceRows.push([`${node.path}|${flag.name}`, described(flag)]);
    const first = node.arguments[0];
    if (first) choiceRows.push([`${node.path}|1`, described(first)]);
  }
  const lines: string[] = [
    '# fish completion for reportctl (generated: reportctl completion fish)',
    '# Load it with:  reportctl completion fish | source',
    ...switchTable(
      '__reportctl_verb',
      nodes.flatMap((node) => node.subcommands.flatMap((sub) => [sub.name, ...sub.aliases].map((word): [string, string[]] => [`${node.path}|${word}`, [sub.name]]))),
    ),
    ...switchTable('__reportctl_value_flags', nodes.map((node) => [node.path, node.flags.filter((flag) => flag.takesValue).map((flag) => flag.name)])),
    ...switchTable('__reportctl_choices', choiceRows),
    '# Prints the command path, then how many arguments follow it.',
    'function __reportctl_scan',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    "    set -l path ''",
    '    set -l skip 0',
    '    set -l arguments 0',
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
    '        set -l verb (__reportctl_verb "$path|$word")',
    '        if test -n "$verb"',
    '            if test -z "$path"',
    '                set path $verb',
    '            else',
    '                set path "$path $verb"',
    '            end',
    '        else',
    '            set arguments (math $arguments + 1)',
    '        end',
    '    end',
    '    printf \'%s\\n\' "$path" $arguments',
    'end',
    'function __reportctl_at',
    '    test (count $argv) -eq 1; or return 1',
    '    set -l here (__reportctl_scan)',
    '    test "$here[1]" = "$argv[1]"',
    'end',
    '# At the command, before its first argument.',
    'function __reportctl_first',
    '    set -l here (__reportctl_scan)',
    '    test "$here[1]" = "$argv[1]" -a "$here[2]" -eq 0',
    'end',
    'function __reportctl_ids',
    '    # Ids from the service, each with its name as the description. Only plain ids are',
    "    # offered, and control characters in a name become '?', whatever printed them.",
    `    command reportctl __complete $argv[1] --names 2>/dev/null | string replace -ra -- ${fq('[\\x00-\\x08\\x0a-\\x1f\\x7f-\\x9f]')} '?' | string match -r -- ${fq(`${COMPLETABLE_ID.source.slice(0, -1)}(?:\\t.*)?$`)}`,
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
      const values = valuesOf(`${node.path}|${flag.name}`, flag);
      const kind = values ? ` -x -a ${values}` : flag.file ? ' -r -F' : flag.takesValue ? ' -x' : '';
      lines.push(`complete -c reportctl ${at} -l ${flag.name.slice(2)}${kind} -d ${fq(flag.description)}`);
    }
    const first = node.arguments[0];
    const values = first && valuesOf(`${node.path}|1`, first);
    if (values) lines.push(`complete -c reportctl -n ${fq(`__reportctl_first ${fq(node.path)}`)} -x -a ${values}`);
    else if (first?.file) lines.push(`complete -c reportctl ${at} -F`);
  }
  return lines.join('\n') + '\n';
}
