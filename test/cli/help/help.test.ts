// `reportctl help [command...]`: a command's --help, by name.
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/in-process.js';

describe('help', () => {
  it('prints the named command\'s help, aliases too', async () => {
    const named = await runInProcess(['help', 'templates', 'apply']);
    expect(named.code).toBe(0);
    expect(named.stdout).toBe((await runInProcess(['templates', 'apply', '--help'])).stdout);
    expect((await runInProcess(['help', 'templates', 'rm'])).stdout).toBe((await runInProcess(['templates', 'delete', '--help'])).stdout);
  });

  it('alone, the program\'s help', async () => {
    const alone = await runInProcess(['help']);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toBe((await runInProcess(['--help'])).stdout);
  });

  it('an unknown command: exit 2, naming it', async () => {
    const result = await runInProcess(['help', 'templates', 'aply']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reportctl: no command "templates aply"\nhint: see reportctl templates --help\n/);
  });
});
