import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerAuthLogin } from './login.js';
import { registerAuthLogout } from './logout.js';
import { registerAuthStatus } from './status.js';

export function registerAuthCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const auth = program.command('auth').description('Save, remove and check the API key of a profile');
  registerAuthLogin(auth, deps, wrap);
  registerAuthLogout(auth, deps, wrap);
  registerAuthStatus(auth, deps, wrap);
}
