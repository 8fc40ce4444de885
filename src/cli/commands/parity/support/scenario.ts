import type { Step } from './context.js';
import { formulaSteps } from './formulas.js';
import { readOnlySteps } from './read-only-steps.js';
import { templateSteps } from './template-steps.js';

/**
 * The scenario, in order: the templates' steps (catalogs first: the bodies are built from
 * them), the read-only resources, then the formula corpus. Every operation of the contract
 * has at least one step.
 */
export const scenario: readonly Step[] = [...templateSteps, ...readOnlySteps, ...formulaSteps];

/** The steps of these operations and every step they need, in the scenario's order. */
export function stepsOf(operations: readonly string[]): readonly Step[] {
  if (operations.length === 0) return scenario;
  const byName = new Map(scenario.map((step) => [step.name, step]));
  const wanted = new Set<string>();
  const want = (step: Step) => {
    if (wanted.has(step.name)) return;
    wanted.add(step.name);
    for (const name of step.needs ?? []) want(byName.get(name)!);
  };
  for (const step of scenario) if (operations.includes(step.operation)) want(step);
  return scenario.filter((step) => wanted.has(step.name));
}
