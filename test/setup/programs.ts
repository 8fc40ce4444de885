import { EXTERNAL_PROGRAMS, hasProgram, type ExternalProgram } from '../helpers/programs.js';

/** Says before the tests, and again under the summary, which tests will not run for want of a program. */
export default function checkExternalPrograms(): (() => void) | undefined {
  const missing = (Object.keys(EXTERNAL_PROGRAMS) as ExternalProgram[]).filter((name) => !hasProgram(name));
  if (missing.length === 0) return undefined;
  const lines = missing.map((name) => `  - ${EXTERNAL_PROGRAMS[name].needed}: ${name} is not installed (${EXTERNAL_PROGRAMS[name].install})`);
  if (process.env.REPORTCTL_REQUIRE_PROGRAMS === '1') {
    throw new Error(`REPORTCTL_REQUIRE_PROGRAMS=1 and these programs are missing:\n${lines.join('\n')}`);
  }
  const notice = `\n*** NOT RUN: tests that need programs this machine lacks (they are skipped) ***\n${lines.join('\n')}\n*** .ci/run installs them and requires them (REPORTCTL_REQUIRE_PROGRAMS=1). ***\n\n`;
  process.stderr.write(notice);
  return () => void process.stderr.write(notice);
}
