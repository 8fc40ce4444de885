import type { Node } from './ast.js';

const ADDITIVE = 1;
const MULTIPLICATIVE = 2;
const UNARY = 3;
const PRIMARY = 4;

function precedence(node: Node): number {
  if (node.kind === 'binary') return node.op === '+' || node.op === '-' ? ADDITIVE : MULTIPLICATIVE;
  return node.kind === 'unary' ? UNARY : PRIMARY;
}

/**
 * Canonical text: single spaces around binary operators, `, ` between arguments, numbers
 * as written, and only the parentheses the tree needs (operators are left-associative, so
 * a right operand of equal precedence keeps its parentheses). `parse(print(ast))` yields
 * `ast` again, spans aside. Iterative, so any depth of tree prints.
 */
export function print(ast: Node): string {
  const out: string[] = [];
  // Work items popped in order: a node to print, or literal text to emit.
  const work: (Node | string)[] = [ast];
  const pushChild = (child: Node, parenthesise: boolean): void => {
    if (parenthesise) work.push(')', child, '(');
    else work.push(child);
  };
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    switch (item.kind) {
      case 'number':
        out.push(item.raw);
        break;
      case 'identifier':
        out.push(item.name);
        break;
      case 'unary':
        out.push(item.op);
        pushChild(item.operand, precedence(item.operand) < UNARY);
        break;
      case 'binary': {
        const own = precedence(item);
        pushChild(item.right, precedence(item.right) <= own);
        work.push(` ${item.op} `);
        pushChild(item.left, precedence(item.left) < own);
        break;
      }
      case 'call':
        out.push(item.callee, '(');
        work.push(')');
        for (let i = item.args.length - 1; i >= 0; i--) {
          const arg = item.args[i];
          if (arg === undefined) continue;
          work.push(arg);
          if (i > 0) work.push(', ');
        }
        break;
    }
  }
  return out.join('');
}
