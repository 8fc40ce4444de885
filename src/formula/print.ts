import { postOrder, type Node } from './ast.js';

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
 * `ast` again, spans aside. One post-order walk (ast.ts), so any depth of tree prints.
 */
export function print(ast: Node): string {
  // Each node's text, children's below their parent's once post-order reaches it.
  const texts: string[] = [];
  const pop = (): string => texts.pop() ?? '';
  const wrap = (text: string, parenthesise: boolean): string => (parenthesise ? `(${text})` : text);
  for (const node of postOrder(ast)) {
    switch (node.kind) {
      case 'number':
        texts.push(node.raw);
        break;
      case 'identifier':
        texts.push(node.name);
        break;
      case 'unary':
        texts.push(node.op + wrap(pop(), precedence(node.operand) < UNARY));
        break;
      case 'binary': {
        const own = precedence(node);
        const right = wrap(pop(), precedence(node.right) <= own);
        const left = wrap(pop(), precedence(node.left) < own);
        texts.push(`${left} ${node.op} ${right}`);
        break;
      }
      case 'call':
        texts.push(`${node.callee}(${texts.splice(texts.length - node.args.length).join(', ')})`);
        break;
    }
  }
  return pop();
}
