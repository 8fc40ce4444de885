// commander's classes typed by @commander-js/extra-typings: a command's options and arguments
// get their types from the flags and arguments declared on it, so renaming a flag breaks the
// build. At run time they are commander's own classes (the wrapper only re-exports them), so
// the bundle carries no second module and no second `program`.
import * as commander from 'commander';
import type * as typed from '@commander-js/extra-typings';

export type { OptionValues } from '@commander-js/extra-typings';
export { CommanderError, InvalidArgumentError } from 'commander';

/* eslint-disable @typescript-eslint/no-empty-object-type -- `{}` is extra-typings' "no options" */
export type Command<Args extends unknown[] = [], Opts extends typed.OptionValues = {}, Globals extends typed.OptionValues = {}> = typed.Command<
  Args,
  Opts,
  Globals
>;
/* eslint-enable @typescript-eslint/no-empty-object-type */
export type Option<Usage extends string = '', Preset = undefined, Default = undefined, Coerce = undefined, Mandatory extends boolean = false, Choices = undefined> = typed.Option<
  Usage,
  Preset,
  Default,
  Coerce,
  Mandatory,
  Choices
>;
export type Argument<Usage extends string = '', Default = undefined, Coerce = undefined, ArgRequired extends boolean | undefined = undefined, Choices = undefined> = typed.Argument<
  Usage,
  Default,
  Coerce,
  ArgRequired,
  Choices
>;
export type CommandUnknownOpts = typed.CommandUnknownOpts;

export const Command = commander.Command as unknown as typeof typed.Command;
export const Option = commander.Option as unknown as typeof typed.Option;
export const Argument = commander.Argument as unknown as typeof typed.Argument;
