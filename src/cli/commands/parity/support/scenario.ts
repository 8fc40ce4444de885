import { otherAccountSteps, subUserSteps } from './account-steps.js';
import { formulaSteps } from './formulas.js';
import { heldDataSteps, openApiStep } from './read-only-steps.js';
import type { OptionalKey, Step } from './step.js';
import { templatesChangedSteps, templatesCreatedSteps } from './template-steps.js';
import { v0Steps } from './v0-steps.js';

/**
 * The scenario, in order: catalogs and templates as created (the bodies are built from the
 * catalogs), what other accounts' and a sub-user's keys reach of them, changes and refusals,
 * then presets and the data the account held, v0, the OpenAPI document and the formulas.
 * Every operation of the contract has at least one step.
 */
export const scenario: readonly Step[] = [
  ...templatesCreatedSteps,
  ...otherAccountSteps,
  ...subUserSteps,
  ...templatesChangedSteps,
  ...heldDataSteps,
  ...v0Steps,
  openApiStep,
  ...formulaSteps,
];

/**
 * The steps of these operations (all when none is named) and every step they need, in the
 * scenario's order; without a key a step requires, neither it nor what needs it.
 */
export function stepsOf(operations: readonly string[], keys: ReadonlySet<OptionalKey>): readonly Step[] {
  const byName = new Map(scenario.map((step) => [step.name, step]));
  const wanted = new Set<string>();
  const want = (step: Step) => {
    if (wanted.has(step.name)) return;
    wanted.add(step.name);
    for (const name of step.needs ?? []) want(byName.get(name)!);
  };
  for (const step of scenario) if (operations.length === 0 || operations.includes(step.operation)) want(step);
  const runnable = (step: Step): boolean => (step.requires === undefined || keys.has(step.requires)) && (step.needs ?? []).every((name) => runnable(byName.get(name)!));
  return scenario.filter((step) => wanted.has(step.name) && runnable(step));
}

/** What the steps that need a key not given would have checked, for the report. */
export function uncheckedFor(operations: readonly string[], keys: ReadonlySet<OptionalKey>): string[] {
  const notes: Record<OptionalKey, string> = {
    otherAccount: "another account's templates are not readable, writable or deletable, nor counted (pass --other-account-key)",
    subUser: "a sub-user's key sees what the owner's sees (pass --sub-user-key)",
  };
  const missing = new Set(scenario.filter((step) => step.requires !== undefined && !keys.has(step.requires) && (operations.length === 0 || operations.includes(step.operation))).map((step) => step.requires!));
  return [...missing].map((key) => notes[key]);
}
