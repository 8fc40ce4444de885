import { describe } from 'vitest';
import { registerTemplatesApply } from '../../../src/cli/commands/templates/apply.js';
import { itParsesFlags } from '../../helpers/flags.js';

describe('templates apply flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerTemplatesApply(program.command('templates'), deps, wrap, runF),
    [
      [['templates', 'apply', 'templates/'], { options: {}, args: ['templates/'] }],
      [['templates', 'apply', 'templates/', '--prune', '--dry-run'], { options: { prune: true, dryRun: true }, args: ['templates/'] }],
      [['templates', 'apply', 'templates/', '--prune', '-y', '--json'], { options: { prune: true, yes: true, json: true }, args: ['templates/'] }],
      [['templates', 'apply'], { usage: /missing required argument 'dir'/ }],
      [['templates', 'apply', 'templates/', '--dryrun'], { usage: /unknown option '--dryrun'/ }],
    ],
  );
});
