import { describe, expect, it } from 'vitest';
import { registerFormulaEval } from '../../../src/cli/commands/formula/eval.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runInProcess } from '../../helpers/in-process.js';

describe('formula eval flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerFormulaEval(program.command('formula'), deps, wrap, runF),
    [
      [['formula', 'eval', 'NIR / R'], { options: { eps: 1e-9 }, args: ['NIR / R'] }],
      [['formula', 'eval', '(NIR - R) / (NIR + R + eps)', '--band', 'NIR=0.62', '-b', 'R=0.08', '--eps', '0.001', '--L', '1'], { options: { band: { NIR: 0.62, R: 0.08 }, eps: 0.001, L: 1 }, args: ['(NIR - R) / (NIR + R + eps)'] }],
      [['formula', 'eval', 'NIR', '--band', 'NIR:0.6'], { usage: /--band: expected NAME=VALUE \(e.g. NIR=0.62\), got `NIR:0.6`/ }],
      [['formula', 'eval', 'NIR', '--band', 'NIR=high'], { usage: /--band NIR/ }],
      [['formula', 'eval', 'NIR', '--eps', 'tiny'], { usage: /--eps/ }],
      [['formula', 'eval', 'NIR', '--band', 'nir=0.62'], { usage: /^reportctl: --band: unknown band "nir"; did you mean "NIR"\?\nhint: the bands are R, G, B, RE, NIR\n$/ }],
      [['formula', 'eval', 'NIR', '--band', 'X=1'], { usage: /^reportctl: --band: unknown band "X"\n/ }],
      [['formula', 'eval', 'NIR', '--band', 'L=0.3'], { usage: /--band: L is not a band; give it with --L/ }],
      [['formula', 'eval', 'NIR', '--band', '=0.3'], { usage: /--band: expected NAME=VALUE/ }],
      [['formula', 'eval'], { usage: /missing required argument 'formula'/ }],
    ],
  );
});

describe('formula eval', () => {
  const savi = '(1 + L) * (NIR - R) / (NIR + R + L + eps)';

  it('says on stderr when it uses the default L, and uses 0.5', async () => {
    const result = await runInProcess(['formula', 'eval', savi, '-b', 'NIR=0.5', '-b', 'R=0.1']);
    expect(result.code).toBe(0);
    expect(Number(result.stdout)).toBeCloseTo((1.5 * 0.4) / 1.1, 6);
    expect(result.stderr).toBe('reportctl: L = 0.5 (the default; set it with --L)\n');
  });

  it('says nothing of L when it is given or not used', async () => {
    const given = await runInProcess(['formula', 'eval', savi, '-b', 'NIR=0.5', '-b', 'R=0.1', '--L', '1']);
    expect(Number(given.stdout)).toBeCloseTo((2 * 0.4) / 1.6, 6);
    const unused = await runInProcess(['formula', 'eval', 'NIR - R', '-b', 'NIR=0.5', '-b', 'R=0.1']);
    expect([given.stderr, unused.stderr]).toEqual(['', '']);
  });

  it('help names the bands and the default L, and no empty default', async () => {
    const help = await runInProcess(['formula', 'eval', '--help']);
    expect(help.stdout).toContain('R, G, B, RE, NIR');
    expect(help.stdout).toMatch(/--L <value>\s+value of L, the SAVI soil factor \(default: 0\.5/);
    expect(help.stdout).not.toContain('(default: {})');
  });
});

describe('reportctl formula eval', () => {
  it('evaluates NDVI on given reflectances', async () => {
    const result = await runInProcess(['formula', 'eval', '(NIR - R) / (NIR + R + eps)', '--band', 'NIR=0.62', '--band', 'R=0.08', '--eps', '0']);
    expect(result.code).toBe(0);
    expect(Number(result.stdout.trim())).toBeCloseTo((0.62 - 0.08) / (0.62 + 0.08), 12);
  });

  it('uses --L for SAVI and prints JSON with --json', async () => {
    const result = await runInProcess(['formula', 'eval', '(1 + L) * (NIR - R) / (NIR + R + L + eps)', '-b', 'NIR=0.5', '-b', 'R=0.1', '--L', '0.5', '--eps', '0', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { value: number };
    expect(parsed.value).toBeCloseTo((1.5 * 0.4) / 1.1, 12);
  });

  it('names every missing band, exit 2', async () => {
    const result = await runInProcess(['formula', 'eval', '(NIR - G) / (RE + B + eps)', '--band', 'NIR=0.5']);
    expect(result.code).toBe(2);
    for (const band of ['G', 'RE', 'B']) expect(result.stderr).toContain(band);
    expect(result.stderr).toContain('--band');
  });

  it('rejects a malformed --band with exit 2', async () => {
    const result = await runInProcess(['formula', 'eval', 'NIR', '--band', 'NIR:0.5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/NAME=VALUE/);
  });

  it('reports an invalid formula with exit 1', async () => {
    const result = await runInProcess(['formula', 'eval', 'NIR / R', '--band', 'NIR=1', '--band', 'R=1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/eps/);
  });
});
