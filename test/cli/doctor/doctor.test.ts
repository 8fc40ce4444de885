import { describe } from 'vitest';
import { registerDoctor } from '../../../src/cli/commands/doctor/doctor.js';
import { itParsesFlags } from '../../helpers/flags.js';

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
