import { postOrder, type Node } from './ast.js';
import { formulaFunction } from './functions.js';
import { takesExactly } from './rule-messages.js';

/** Raised when a formula cannot be evaluated, most often because names have no value. */
export class FormulaEvaluationError extends Error {
  override readonly name = 'FormulaEvaluationError';

  constructor(
    message: string,
    /** Every name in the formula with no value, in order of first appearance. */
    readonly missing: string[] = [],
  ) {
    super(message);
  }
}

/**
 * Evaluates a parsed formula with IEEE double semantics (x / 0 is ±Infinity or NaN). Every
 * identifier needs a number in `values`; all missing ones are named in one error. One
 * post-order walk (ast.ts), so depth is no concern.
 */
export function evaluate(ast: Node, values: Readonly<Record<string, number>>): number {
  const missing = new Set<string>();
  // The first bad call as the text reads (the outermost, for nested ones): least start.
  let badCall: { start: number; message: string } | undefined;
  const results: number[] = [];
  const pop = (): number => results.pop() ?? Number.NaN;
  for (const node of postOrder(ast)) {
    switch (node.kind) {
      case 'number':
        results.push(node.value);
        break;
      case 'identifier':
        // Own numeric values only, so `constructor` or `toString` never count as given.
        if (!Object.hasOwn(values, node.name) || typeof values[node.name] !== 'number') missing.add(node.name);
        results.push(values[node.name] ?? Number.NaN);
        break;
      case 'unary': {
        const operand = pop();
        results.push(node.op === '-' ? -operand : operand);
        break;
      }
      case 'binary': {
        const right = pop();
        const left = pop();
        results.push(applyBinary(node.op, left, right));
        break;
      }
      case 'call': {
        const args = results.splice(results.length - node.args.length);
        const fn = formulaFunction(node.callee);
        const problem =
          fn === undefined ? `unknown function \`${node.callee}\`` : node.args.length !== fn.arity ? takesExactly(fn.name, fn.arity, node.args.length) : undefined;
        if (problem !== undefined && (badCall === undefined || node.start < badCall.start)) badCall = { start: node.start, message: problem };
        results.push(fn === undefined || problem !== undefined ? Number.NaN : fn.apply(...args));
        break;
      }
    }
  }
  if (missing.size > 0) {
    const list = [...missing].map((name) => `\`${name}\``).join(', ');
    throw new FormulaEvaluationError(`no value for ${list}`, [...missing]);
  }
  if (badCall !== undefined) throw new FormulaEvaluationError(badCall.message);
  return pop();
}

function applyBinary(op: '+' | '-' | '*' | '/', left: number, right: number): number {
  switch (op) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return left / right;
  }
}
