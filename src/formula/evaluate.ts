import type { Node } from './ast.js';
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
 * identifier needs a number in `values`; all missing ones are named in one error. Walks the
 * tree with an explicit stack, so depth is no concern.
 */
export function evaluate(ast: Node, values: Readonly<Record<string, number>>): number {
  const missing = missingNames(ast, values);
  if (missing.length > 0) {
    const list = missing.map((name) => `\`${name}\``).join(', ');
    throw new FormulaEvaluationError(`no value for ${list}`, missing);
  }

  const nodes: Node[] = [ast];
  const expanded: boolean[] = [false];
  const results: number[] = [];
  const pop = (): number => results.pop() ?? Number.NaN;
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    const ready = expanded.pop() === true;
    switch (node.kind) {
      case 'number':
        results.push(node.value);
        break;
      case 'identifier':
        results.push(values[node.name] ?? Number.NaN);
        break;
      case 'unary':
        if (ready) {
          const operand = pop();
          results.push(node.op === '-' ? -operand : operand);
        } else {
          nodes.push(node, node.operand);
          expanded.push(true, false);
        }
        break;
      case 'binary':
        if (ready) {
          const right = pop();
          const left = pop();
          results.push(applyBinary(node.op, left, right));
        } else {
          nodes.push(node, node.right, node.left);
          expanded.push(true, false, false);
        }
        break;
      case 'call': {
        const fn = formulaFunction(node.callee);
        if (fn === undefined) throw new FormulaEvaluationError(`unknown function \`${node.callee}\``);
        if (node.args.length !== fn.arity) throw new FormulaEvaluationError(takesExactly(fn.name, fn.arity, node.args.length));
        if (ready) {
          results.push(fn.apply(...results.splice(results.length - fn.arity)));
        } else {
          nodes.push(node);
          expanded.push(true);
          // Last argument first, so the first is evaluated first and its result lies deepest.
          for (let i = node.args.length - 1; i >= 0; i--) {
            const arg = node.args[i];
            if (arg === undefined) continue;
            nodes.push(arg);
            expanded.push(false);
          }
        }
        break;
      }
    }
  }
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

/** Names with no own numeric value (so `constructor` or `toString` never count as given). */
function missingNames(ast: Node, values: Readonly<Record<string, number>>): string[] {
  const missing = new Set<string>();
  const pending: Node[] = [ast];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    switch (node.kind) {
      case 'identifier':
        if (!Object.hasOwn(values, node.name) || typeof values[node.name] !== 'number') missing.add(node.name);
        break;
      case 'unary':
        pending.push(node.operand);
        break;
      case 'binary':
        // Right first so names come out in reading order.
        pending.push(node.right, node.left);
        break;
      case 'call':
        for (let i = node.args.length - 1; i >= 0; i--) {
          const arg = node.args[i];
          if (arg !== undefined) pending.push(arg);
        }
        break;
      case 'number':
        break;
    }
  }
  return [...missing];
}
