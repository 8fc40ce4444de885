import { postOrder, type Binary, type Call, type Identifier, type Node } from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { arityOf } from './functions.js';
import * as messages from './rule-messages.js';
import type { FormulaRules } from './rules.js';

type NameKind = 'band' | 'scalar' | 'function';

/** What each allowed name is; bands win over scalars over functions. */
class CompiledRules implements messages.AllowedNames {
  readonly allowedBands: readonly string[];
  readonly allowedScalars: readonly string[];
  readonly allowedFunctions: readonly string[];
  private readonly names: string[] = [];
  private readonly kinds: NameKind[] = [];
  private readonly byName = new Map<string, NameKind>();

  constructor(readonly rules: FormulaRules) {
    ({ allowedBands: this.allowedBands, allowedScalars: this.allowedScalars, allowedFunctions: this.allowedFunctions } = rules);
    for (const [list, kind] of [
      [rules.allowedBands, 'band'],
      [rules.allowedScalars, 'scalar'],
      [rules.allowedFunctions, 'function'],
    ] as const) {
      for (const name of list) {
        if (this.byName.has(name)) continue;
        this.byName.set(name, kind);
        this.names.push(name);
        this.kinds.push(kind);
      }
    }
  }

  kindOf(name: string): NameKind | undefined {
    // Names fresh from the source have no hash yet; comparing a few short strings is
    // cheaper than hashing each, and the usual catalogue has under ten names.
    if (this.names.length > 16) return this.byName.get(name);
    for (let i = 0; i < this.names.length; i++) if (this.names[i] === name) return this.kinds[i];
    return undefined;
  }
}

// Rules are data that rarely change: compile each rules object once (so a rules object is
// treated as immutable once checked against).
const compiled = new WeakMap<FormulaRules, CompiledRules>();
let lastCompiled: CompiledRules | undefined;

function compile(rules: FormulaRules): CompiledRules {
  if (lastCompiled?.rules === rules) return lastCompiled;
  let found = compiled.get(rules);
  if (found === undefined) {
    found = new CompiledRules(rules);
    compiled.set(rules, found);
  }
  lastCompiled = found;
  return found;
}

/**
 * Every breach of `rules` in a parsed formula, in source order: names that are not allowed,
 * calls of what is not an allowed function or with the wrong number of arguments, and
 * divisions whose divisor has no `eps`. One walk over the tree.
 */
export function ruleBreaches(ast: Node, source: string, rules: FormulaRules): Diagnostic[] {
  const allowed = compile(rules);
  let walk = new RuleWalk(allowed, rules.divisionRequiresEps, source);
  try {
    walk.visit(ast, 0);
  } catch (error) {
    // Called with the stack nearly full already: start again without recursing.
    if (!(error instanceof RangeError)) throw error;
    walk = new RuleWalk(allowed, rules.divisionRequiresEps, source);
    walk.visitDeep(ast);
  }
  const { errors } = walk;
  if (errors.length > 1) errors.sort(inSourceOrder);
  return errors;
}

/**
 * Recursion is the fast way through the usual shallow tree; below MAX_RECURSION levels the
 * walk goes on with explicit stacks, so a tree of any depth is checked.
 */
const MAX_RECURSION = 64;

/** The walk: each visit checks one node and answers whether its subtree mentions `eps`. */
class RuleWalk {
  readonly errors: Diagnostic[] = [];

  constructor(
    private readonly allowed: CompiledRules,
    private readonly epsRequired: boolean,
    private readonly source: string,
  ) {}

  visit(node: Node, depth: number): boolean {
    if (depth > MAX_RECURSION) return this.visitDeep(node);
    switch (node.kind) {
      case 'number':
        return false;
      case 'identifier':
        return this.identifier(node);
      case 'unary':
        return this.visit(node.operand, depth + 1);
      case 'binary': {
        const left = this.visit(node.left, depth + 1);
        const right = this.visit(node.right, depth + 1);
        this.binary(node, right);
        return left || right;
      }
      case 'call': {
        this.call(node);
        let eps = false;
        for (const arg of node.args) if (this.visit(arg, depth + 1)) eps = true;
        return eps;
      }
    }
  }

  /** `visit` for any depth: ast.ts's post-order, children's answers on `mentions`. */
  visitDeep(root: Node): boolean {
    const mentions: boolean[] = [];
    for (const node of postOrder(root)) {
      switch (node.kind) {
        case 'number':
          mentions.push(false);
          break;
        case 'identifier':
          mentions.push(this.identifier(node));
          break;
        case 'unary':
          // The operand's answer is the unary's too.
          break;
        case 'binary': {
          const right = mentions.pop() === true;
          const left = mentions.pop() === true;
          this.binary(node, right);
          mentions.push(left || right);
          break;
        }
        case 'call': {
          this.call(node);
          let eps = false;
          for (let i = 0; i < node.args.length; i++) if (mentions.pop() === true) eps = true;
          mentions.push(eps);
          break;
        }
      }
    }
    return mentions.pop() === true;
  }

  /** Checks a name read as a value; whether it is `eps`. */
  private identifier(node: Identifier): boolean {
    const kind = this.allowed.kindOf(node.name);
    if (kind === 'function') this.errors.push(messages.functionWithoutCall(node, arityOf(node.name), this.allowed));
    else if (kind === undefined) this.errors.push(messages.unknownIdentifier(node, this.allowed));
    return node.name === 'eps';
  }

  private binary(node: Binary, divisorMentionsEps: boolean): void {
    if (node.op === '/' && !divisorMentionsEps && this.epsRequired) this.errors.push(messages.divisionWithoutEps(node, this.source));
  }

  private call(node: Call): void {
    const kind = this.allowed.kindOf(node.callee);
    if (kind === 'function') {
      const arity = arityOf(node.callee);
      if (node.args.length !== arity) this.errors.push(messages.wrongArgumentCount(node, arity, this.allowed));
    } else if (kind !== undefined) {
      this.errors.push(messages.notAFunction(node, kind));
    } else {
      this.errors.push(messages.unknownFunction(node, this.allowed));
    }
  }
}

/** By offset; at one offset a name's or a call's own error comes before its division's. */
function inSourceOrder(a: Diagnostic, b: Diagnostic): number {
  return a.offset - b.offset || divisionLast(a) - divisionLast(b);
}

function divisionLast(error: Diagnostic): number {
  return error.code === 'division-without-eps' ? 1 : 0;
}
