import { describe, expect, it } from 'vitest';
import { registerDoctor } from '../../../src/cli/commands/doctor/doctor.js';
import { itParsesFlags } from '../../helpers/flags.js';
import { runInProcess } from '../../helpers/in-process.js';
import { closedUrl, tempDir } from '../../helpers/server.js';

describe('doctor flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerDoctor(program, deps, wrap, runF),
    [
      [['doctor'], { options: {} }],
      [['doctor', '--json', '--profile', 'field'], { options: { json: true, profile: 'field' } }],
      [['doctor', '--fix'], { usage: /unknown option '--fix'/ }],
    ],
  );
});

describe('doctor and the profile', () => {
  it('reports a profile named but not in the config file, with the closest name, and fails', async () => {
    const env = { REPORTCTL_CONFIG_DIR: tempDir('reportctl-config-'), REPORTCTL_BASE_URL: await closedUrl() };
    expect((await runInProcess(['config', 'use', '--create', 'staging'], { env })).code).toBe(0);
    const result = await runInProcess(['doctor', '--json'], { env: { ...env, REPORTCTL_PROFILE: 'stagin' } });
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout) as { name: string; status: string; detail: string; fix?: string }[];
    expect(checks.find((check) => check.name === 'profile')).toEqual({
      name: 'profile',
      status: 'fail',
      detail: 'no profile "stagin"; did you mean "staging"?; the checks below use the defaults',
      fix: 'REPORTCTL_PROFILE names it; profiles: default, staging; `reportctl config use --create stagin` starts a new one',
    });
    const fine = await runInProcess(['doctor', '--json'], { env: { ...env, REPORTCTL_PROFILE: 'staging' } });
    expect((JSON.parse(fine.stdout) as { name: string }[]).map((check) => check.name)).not.toContain('profile');
  });
});
