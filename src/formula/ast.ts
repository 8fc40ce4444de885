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
