// Across verbs: a usage mistake (a misspelt value, a formula that starts with -, a busy port) is
// answered with its fix.
import { describe, expect, it } from 'vitest';
import { runInProcess, startInProcessService } from '../helpers/in-process.js';

describe('usage mistakes are answered with the fix', () => {
  it.each([
    [['templates', 'list', '--analysis-type', 'count'], 'did you mean counting?'],
    [['queue-runs', 'list', '--status', 'complete'], 'did you mean completed?'],
    [['analyses', 'list', '--status', 'faild'], 'did you mean failed?'],
  ])('%j: exit 2, %s', async (args, guess) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(guess);
  });

  it('a formula that starts with - is shown in the -- form', async () => {
    const result = await runInProcess(['formula', 'check', '-NIR / (R + eps)']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("hint: a formula that starts with - goes after --: reportctl formula check -- '-NIR / (R + eps)'");
    const fixed = await runInProcess(['formula', 'check', '--', '-NIR / (R + eps)']);
    expect(fixed.code).toBe(0);
  });

  it('serve on a busy port says so in one line and names --port 0', async () => {
    const first = await startInProcessService();
    try {
      const port = new URL(first.url).port;
      const second = await runInProcess(['serve', '--port', port, '--db', ':memory:']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`^reportctl: port ${port} on 127.0.0.1 is already in use\\nhint: use --port 0`));
    } finally {
      await first.stop();
    }
  });
});
