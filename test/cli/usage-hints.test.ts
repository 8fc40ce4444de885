import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';

describe('usage mistakes are answered with the fix', () => {
  it.each([
    [['templates', 'list', '--analysis-type', 'count'], 'did you mean counting?'],
    [['queue-runs', 'list', '--status', 'complete'], 'did you mean completed?'],
    [['analyses', 'list', '--status', 'faild'], 'did you mean failed?'],
  ])('%j: exit 2, %s', async (args, guess) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(guess);
  });

  it('a formula that starts with - is shown in the -- form', async () => {
    const result = await runCli(['formula', 'check', '-NIR / (R + eps)']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("hint: a formula that starts with - goes after --: reportctl formula check -- '-NIR / (R + eps)'");
    const fixed = await runCli(['formula', 'check', '--', '-NIR / (R + eps)']);
    expect(fixed.code).toBe(0);
  });

  it('serve on a busy port says so in one line and names --port 0', async () => {
    const first = await spawnCli(['serve', '--port', '0', '--db', ':memory:', '--no-access-log']);
    try {
      const port = /:(\d+)$/.exec(first.firstLine)![1]!;
      const second = await runCli(['serve', '--port', port, '--db', ':memory:']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`^reportctl: port ${port} on 127.0.0.1 is already in use\\nhint: use --port 0`));
    } finally {
      await first.stop();
    }
  });
});
