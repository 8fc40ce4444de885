/**
 * A function formulas may call. This list is the one place to add one: the default rules,
 * the argument-count check, the evaluator and the service's seeded catalog (and, through
 * it, existing databases) all read it.
 */
export interface FormulaFunction {
  name: string;
  /** How many arguments a call takes. */
  arity: number;
  apply: (...args: number[]) => number;
}

export const formulaFunctions: readonly FormulaFunction[] = [
  { name: 'sqrt', arity: 1, apply: Math.sqrt },
  { name: 'abs', arity: 1, apply: Math.abs },
];

/**
 * Calls of a function the rules allow but this engine does not know (a newer service's
 * catalog) take one argument, as the grammar always had it.
 */
export const DEFAULT_ARITY = 1;

const byName = new Map(formulaFunctions.map((fn) => [fn.name, fn]));

export function formulaFunction(name: string): FormulaFunction | undefined {
  return byName.get(name);
}

export function arityOf(name: string): number {
  return byName.get(name)?.arity ?? DEFAULT_ARITY;
}
