/**
 * Formula syntax tree. Every node carries the span of its text, half-open `[start, end)` in
 * UTF-16 offsets. Parentheses only group and leave no node (so print → parse gives the same
 * tree back): a node's span includes parentheses inside it, not those written around it.
 */
export interface Span {
  start: number;
  end: number;
}

export interface NumberLiteral extends Span {
  kind: 'number';
  value: number;
  /** The literal as written (`1.`, `.5`, `1e-3`); the printer reproduces it. */
  raw: string;
}

export interface Identifier extends Span {
  kind: 'identifier';
  name: string;
}

export type UnaryOperator = '+' | '-';

export interface Unary extends Span {
  kind: 'unary';
  op: UnaryOperator;
  operand: Node;
}

export type BinaryOperator = '+' | '-' | '*' | '/';

export interface Binary extends Span {
  kind: 'binary';
  op: BinaryOperator;
  left: Node;
  right: Node;
}

export interface Call extends Span {
  kind: 'call';
  callee: string;
  calleeStart: number;
  calleeEnd: number;
  /** As written; the grammar's one-argument rule is checked by `checkFormula`, not the parser. */
  args: Node[];
}

export type Node = NumberLiteral | Identifier | Unary | Binary | Call;

const NO_CHILDREN: readonly Node[] = [];

/** A node's operands in reading order. */
export function children(node: Node): readonly Node[] {
  switch (node.kind) {
    case 'unary':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'call':
      return node.args;
    default:
      return NO_CHILDREN;
  }
}

/**
 * Every node, each after its children and siblings left to right (post-order), so a walk can
 * keep its children's answers on a stack: the one walk of evaluate, print and the rule check.
 * Built with an explicit stack, so a tree of any depth walks.
 */
export function postOrder(root: Node): Node[] {
  const reversed: Node[] = [];
  const pending: Node[] = [root];
  // Root, then right to left: the reverse of post-order.
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    reversed.push(node);
    for (const child of children(node)) pending.push(child);
  }
  return reversed.reverse();
}
