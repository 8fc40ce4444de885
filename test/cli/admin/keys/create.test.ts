import { describe } from 'vitest';
import { registerAdminKeysCreate } from '../../../../src/cli/commands/admin/keys/create.js';
import { itParsesFlags } from '../../../helpers/flags.js';

describe('admin keys create flags', () => {
  itParsesFlags(
    (program, deps, wrap, runF) => registerAdminKeysCreate(program.command('admin').command('keys'), deps, wrap, runF),
    [
      [['admin', 'keys', 'create', '--account', 'acc-1'], { options: { account: 'acc-1' } }],
      [['admin', 'keys', 'create', '--account', 'acc-1', '--sub-user', 'pilot', '--json'], { options: { account: 'acc-1', subUser: 'pilot', json: true } }],
      [['admin', 'keys', 'create'], { usage: /required option '--account <id>' not specified/ }],
    ],
  );
});
