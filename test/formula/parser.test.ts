import { buildSync } from 'esbuild';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { checkFormula, parse, print, type Node } from '../../src/formula/index.js';

const tree = (formula: string): Node => {
  const { ast, diagnostics } = parse(formula);
  expect(diagnostics).toEqual([]);
  return ast!;
};

describe('parse', () => {
  it('gives each node the span of its own text', () => {
    expect(tree('(NIR - R) / (NIR + R + eps)')).toMatchObject({
      kind: 'binary',
      op: '/',
      start: 0,
      end: 27,
      left: { kind: 'binary', op: '-', start: 1, end: 8, left: { name: 'NIR', start: 1, end: 4 }, right: { name: 'R', start: 7, end: 8 } },
      right: { kind: 'binary', op: '+', start: 13, end: 26 },
    });
    expect(tree(' sqrt ( R ) ')).toEqual({
      kind: 'call',
      callee: 'sqrt',
      calleeStart: 1,
      calleeEnd: 5,
      args: [{ kind: 'identifier', name: 'R', start: 8, end: 9 }],
      start: 1,
      end: 11,
    });
  });

  it('applies a sign to the group or call right after it, not to what follows', () => {
    expect(print(tree('-(R) * G'))).toBe('-R * G');
    expect(tree('-(R) * G')).toMatchObject({ kind: 'binary', op: '*', left: { kind: 'unary', op: '-', start: 0, end: 4 } });
    expect(tree('-sqrt(R) / G')).toMatchObject({ kind: 'binary', op: '/', left: { kind: 'unary', operand: { kind: 'call' } } });
    expect(tree('(-R * G + B)')).toMatchObject({
      kind: 'binary',
      op: '+',
      start: 1,
      end: 11,
      left: { kind: 'binary', op: '*', left: { kind: 'unary', start: 1, end: 3 } },
    });
  });

  it('reads calls nested in calls, signs and groups', () => {
    expect(print(tree('f(-g(), (h(R)) * 2, -(k(R, G)))'))).toBe('f(-g(), h(R) * 2, -k(R, G))');
    expect(tree('f()')).toMatchObject({ kind: 'call', args: [], start: 0, end: 3 });
    expect(tree('((f()) + 1)')).toMatchObject({ kind: 'binary', start: 1, end: 10, left: { kind: 'call', start: 2, end: 5 } });
  });

  it('returns no tree when there is any diagnostic', () => {
    const result = parse('NIR ** 2');
    expect(result.ast).toBeNull();
    expect(result.diagnostics).toHaveLength(1);
  });

  // The deepest formulas within 2000 characters, in every shape of nesting.
  const deepest = {
    parentheses: '('.repeat(999) + 'R' + ')'.repeat(999),
    signs: '-'.repeat(1999) + 'R',
    signedGroups: '-('.repeat(666) + 'R' + ')'.repeat(666),
    calls: 'f('.repeat(666) + 'R' + ')'.repeat(666),
    sums: 'R+('.repeat(499) + 'R' + ')'.repeat(499),
    products: 'R*('.repeat(499) + 'R' + ')'.repeat(499),
    arguments: 'f(R,'.repeat(399) + 'R' + ')'.repeat(399),
    chain: 'R+'.repeat(999) + 'R',
  };

  /** Runs parse, checkFormula and print on each formula in a worker with a small stack. */
  async function inWorker(formulas: Record<string, string>, stackSizeMb: number): Promise<Record<string, unknown>> {
    const engine = buildSync({
      entryPoints: [new URL('../../src/formula/index.ts', import.meta.url).pathname],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
    }).outputFiles[0]!.text;
    const script = `
      const module = { exports: {} };
      new Function('module', 'exports', ${JSON.stringify(engine)})(module, module.exports);
      const { checkFormula, parse, print } = module.exports;
      const { parentPort, workerData } = require('node:worker_threads');
      const results = {};
      for (const [name, formula] of Object.entries(workerData)) {
        try {
          const parsed = parse(formula);
          const check = checkFormula(formula);
          results[name] = {
            parse: parsed.diagnostics.map((d) => d.code),
            check: [...new Set(check.errors.map((e) => e.code))],
            printed: parsed.ast === null ? null : print(parsed.ast),
          };
        } catch (error) {
          results[name] = 'threw ' + error;
        }
      }
      parentPort.postMessage(results);
    `;
    return new Promise((resolve, reject) => {
      const worker = new Worker(script, { eval: true, workerData: formulas, resourceLimits: { stackSizeMb } });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  }

  it('parses the deepest formulas within the length limit on half the default stack', async () => {
    for (const formula of Object.values(deepest)) expect(formula.length).toBeLessThanOrEqual(2000);
    // Node's main thread has about 1 MB of stack.
    const results = await inWorker(deepest, 0.5);
    // No syntax diagnostics, only unknown-function for the made-up `f`, and the same
    // canonical text as on the main thread.
    for (const [name, formula] of Object.entries(deepest)) {
      expect(results[name], name).toEqual({
        parse: [],
        check: formula.includes('f(') ? ['unknown-function'] : [],
        printed: print(tree(formula)),
      });
    }
  });

  it('answers with a diagnostic, not a crash, when the stack runs out', () => {
    // Recurse until the stack is exhausted, then call `run` from ever shallower frames until
    // one call returns: that call had barely enough stack to start.
    const withStackNearlyFull = <T>(run: () => T): T => {
      try {
        return withStackNearlyFull(run);
      } catch {
        return run();
      }
    };
    const nested = 'R+('.repeat(499) + 'R' + ')'.repeat(499);
    expect(withStackNearlyFull(() => parse(nested))).toMatchObject({ ast: null, diagnostics: [{ code: 'too-deep' }] });
    expect(withStackNearlyFull(() => checkFormula(nested))).toMatchObject({ valid: false, errors: [{ code: 'too-deep' }] });
  });
});
