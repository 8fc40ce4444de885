import { InvalidArgumentError, Option, type Command, type OptionValues } from '../cmdutil/typed-commander.js';
import { describeChoices, type ChoiceNotes } from '../cmdutil/choice-notes.js';
import { closestChoice } from '../../contract/closest-match.js';
import { integerOption } from '../cmdutil/option-parsers.js';

export interface ListOptions {
  page?: number;
  limit?: number;
  all?: boolean;
  wide?: boolean;
}

/** --page, --limit, --all and --wide, the same on every list command. */
export function addListOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) {
  return command
    .option('--page <n>', 'page number (from 1)', integerOption(1))
    .option('--limit <n>', 'items per page (1–100, default 20)', integerOption(1, 100))
    .option('--all', 'every item, page by page (paced under the rate limit)')
    .option('--wide', 'more columns')
    .addOption(new Option('--no-wide').hideHelp());
}

/**
 * An option limited to a fixed set, so help, completion and errors all name the values; a
 * value outside it is a usage error with the closest valid one. `notes` describe the values.
 */
export function choiceOption<Usage extends string, Choice extends string>(flags: Usage, description: string, choices: readonly Choice[], notes: ChoiceNotes = {}) {
  return describeChoices(new Option(flags, description).choices(choices).argParser(choiceParser(choices)), notes);
}

/** The parser of a value limited to `choices` (an option's or an argument's). */
export function choiceParser<Choice extends string>(choices: readonly Choice[]): (value: string) => Choice {
  return (value) => {
    if ((choices as readonly string[]).includes(value)) return value as Choice;
    const guess = closestChoice(value, choices);
    throw new InvalidArgumentError(`${guess ? `did you mean ${guess}? ` : ''}Valid: ${choices.join(', ')}.`);
  };
}
