import { ENVIRONMENT } from '../../../cmdutil/environment.js';
import { EXIT_CODE_MEANINGS } from '../../../cmdutil/errors.js';
import type { ReferenceCommand } from './reference.js';

/**
 * roff for man(1), one page per command (`man reportctl-templates-apply`), from the same data
 * as the Markdown reference. No dates in the pages: a rebuild of the same tree is the same bytes.
 */

/** Text as roff reads it: backslashes and hyphens kept, a line never read as a request. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function manPageName(path: string): string {
  return path === '' ? 'reportctl' : `reportctl-${path.replace(/ /g, '-')}`;
}

function section(title: string, body: string[]): string[] {
  return body.length === 0 ? [] : [`.SH ${title}`, ...body];
}

function page(command: ReferenceCommand, version: string, all: readonly ReferenceCommand[]): string {
  const name = manPageName(command.path);
  const title = command.path === '' ? 'reportctl' : `reportctl ${command.path}`;
  const children = all.filter((other) => other.path !== command.path && other.path.startsWith(command.path) && other.path.split(' ').length === (command.path === '' ? 1 : command.path.split(' ').length + 1));
  const lines = [
    `.TH ${roff(name.toUpperCase())} 1 "" "reportctl ${roff(version)}" "reportctl manual"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(command.summary)}`,
    '.SH SYNOPSIS',
    `.B ${roff(title)}`,
    roff(command.usage.slice(title.length).trim()),
    '.SH DESCRIPTION',
    roff(command.summary),
    ...(command.aliases.length > 0 ? ['.PP', `Also: ${roff(command.aliases.join(', '))}`] : []),
    ...section(
      'ARGUMENTS',
      command.arguments.flatMap((argument) => ['.TP', `.B ${roff(argument.name)}`, roff(`${argument.description}${argument.choices.length > 0 ? ` (one of ${argument.choices.join(', ')})` : ''}${argument.required ? '' : ' (optional)'}`)]),
    ),
    ...section(
      command.path === '' ? 'GLOBAL OPTIONS' : 'OPTIONS',
      command.flags.flatMap((flag) => [
        '.TP',
        `.B ${roff(flag.flags)}`,
        roff(`${flag.description}${flag.choices.length > 0 ? ` (one of ${flag.choices.join(', ')})` : ''}${flag.defaultValue === undefined ? '' : ` (default: ${flag.defaultValue})`}`),
      ]),
    ),
    ...section('COMMANDS', children.flatMap((child) => ['.TP', `.B ${roff(child.path.split(' ').at(-1)!)}`, `${roff(child.summary)} See \\fB${roff(manPageName(child.path))}\\fR(1).`])),
    ...section('NOTES AND EXAMPLES', command.after === '' ? [] : ['.nf', roff(command.after), '.fi']),
    ...(command.path === ''
      ? [
          ...section('EXIT STATUS', EXIT_CODE_MEANINGS.flatMap(([status, meaning]) => ['.TP', `.B ${status}`, roff(meaning)])),
          ...section('ENVIRONMENT', ENVIRONMENT.flatMap(([variable, meaning]) => ['.TP', `.B ${roff(variable)}`, roff(meaning)])),
        ]
      : []),
    '.SH SEE ALSO',
    command.path === '' ? 'The README of reportctl, and docs/commands.md.' : `\\fBreportctl\\fR(1) for the global options, exit status and environment.`,
  ];
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}

/** File name (`reportctl-templates-apply.1`) → roff, for every command. */
export function manPages(commands: readonly ReferenceCommand[], version: string): Map<string, string> {
  return new Map(commands.map((command) => [`${manPageName(command.path)}.1`, page(command, version, commands)]));
}
