// Across modules: the shape of the whole source tree (procedure length).
// A property of the whole source tree: no procedure in src/ is longer than 60 lines of its own.
// ESLint's max-lines-per-function counts a nested function inside its parent, so a factory that
// returns short methods would fail it; this counts each function apart instead.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const MAX_OWN_LINES = 60;

/**
 * Procedures that are text to be generated rather than steps, as `file:name`. Each says why;
 * an entry that is no longer over the limit fails the test, so the list cannot go stale.
 */
const GENERATED_TEXT: Record<string, string> = {
  'src/cli/commands/completion/support/bash.ts:bashScript': 'the bash completion script, a template filled with its tables',
  'src/cli/commands/completion/support/fish.ts:fishScript': 'the fish completion script, lines of text around its tables',
};

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.AccessorDeclaration
  | ts.ConstructorDeclaration;

function isFunctionLike(node: ts.Node): node is FunctionLike {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)
  );
}

/** What a reader would call it: its own name, or the name it is assigned or passed to. */
function nameOf(node: FunctionLike, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) {
    const argumentOf = `(argument of ${parent.expression.getText(file).slice(0, 40)})`;
    const holder = parent.parent;
    return ts.isVariableDeclaration(holder) ? `${holder.name.getText(file)} ${argumentOf}` : argumentOf;
  }
  return '(anonymous)';
}

/** Lines that hold code: every line a token covers (a multi-line string covers each of its lines). */
function codeLines(file: ts.SourceFile): Set<number> {
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node) || node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const children = node.getChildren(file);
    if (children.length > 0) {
      children.forEach(visit);
      return;
    }
    const start = node.getStart(file);
    if (start >= node.end) return;
    const first = file.getLineAndCharacterOfPosition(start).line;
    const last = file.getLineAndCharacterOfPosition(node.end).line;
    for (let line = first; line <= last; line++) lines.add(line);
  };
  visit(file);
  return lines;
}

interface Procedure {
  where: string;
  name: string;
  ownLines: number;
}

/**
 * Every function-like node of one file with its own lines: the code lines of its span less those
 * in the span of a function nested in it (whose lines are its own count).
 */
function proceduresOf(path: string, text: string): Procedure[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const code = codeLines(file);
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  const procedures: Procedure[] = [];
  const nestedIn = (node: ts.Node, found: FunctionLike[] = []): FunctionLike[] => {
    node.forEachChild((child) => {
      if (isFunctionLike(child)) found.push(child);
      else nestedIn(child, found);
    });
    return found;
  };
  const measure = (node: FunctionLike): void => {
    const first = lineOf(node.getStart(file));
    const nested = nestedIn(node);
    const elsewhere = new Set<number>();
    for (const inner of nested) {
      for (let line = lineOf(inner.getStart(file)); line <= lineOf(inner.end); line++) elsewhere.add(line);
    }
    let ownLines = 0;
    for (let line = first; line <= lineOf(node.end); line++) if (code.has(line) && !elsewhere.has(line)) ownLines++;
    procedures.push({ where: `${relative(ROOT, path)}:${first + 1}`, name: nameOf(node, file), ownLines });
    nested.forEach(measure);
  };
  nestedIn(file).forEach(measure);
  return procedures;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('procedure length', () => {
  const procedures = sourceFiles(SRC).flatMap((path) => proceduresOf(path, readFileSync(path, 'utf8')));
  const key = (procedure: Procedure) => `${procedure.where.replace(/:\d+$/, '')}:${procedure.name}`;

  it(`no procedure in src/ has more than ${MAX_OWN_LINES} lines of its own`, () => {
    const long = procedures
      .filter((procedure) => procedure.ownLines > MAX_OWN_LINES && !(key(procedure) in GENERATED_TEXT))
      .map((procedure) => `${procedure.where} ${procedure.name} ${procedure.ownLines}`);
    expect(long).toEqual([]);
  });

  it('every exception is still over the limit', () => {
    const stale = Object.keys(GENERATED_TEXT).filter(
      (name) => !procedures.some((procedure) => key(procedure) === name && procedure.ownLines > MAX_OWN_LINES),
    );
    expect(stale).toEqual([]);
  });
});

describe('own lines', () => {
  const count = (text: string) => Object.fromEntries(proceduresOf(join(SRC, 'example.ts'), text).map((p) => [p.name, p.ownLines]));

  it('leaves out blank lines, comments and the lines of nested functions', () => {
    const text = [
      '/** Not counted. */',
      'export function outer(items: number[]) {',
      '  // not counted',
      '',
      '  const total = items.length;',
      '  const doubled = items.map((item) => {',
      '    return item * 2;',
      '  });',
      '  function inner() {',
      '    /* not',
      '       counted */',
      '    return total;',
      '  }',
      '  return { doubled, inner, read() { return 1; } };',
      '}',
    ].join('\n');
    expect(count(text)).toEqual({ outer: 3, 'doubled (argument of items.map)': 3, inner: 3, read: 1 });
  });

  it('counts every line of a multi-line string', () => {
    const text = ['const script = () => `', 'line one', '', 'line three`;'].join('\n');
    expect(count(text)).toEqual({ script: 4 });
  });
});
