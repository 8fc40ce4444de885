import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's data directory, as each platform expects it. */
export function defaultDatabasePath(env: Readonly<Record<string, string | undefined>>, platform: string = process.platform): string {
  const home = env.HOME ?? homedir();
  let base: string;
  if (platform === 'darwin') base = join(home, 'Library', 'Application Support');
  else if (platform === 'win32') base = env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
  else base = env.XDG_DATA_HOME && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  return join(base, 'reportctl', 'reportctl.db');
}
