// Shared by the config and auth tests: the config file in a folder, and what it holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const configFile = (dir: string) => join(dir, 'config.json');
export const readConfig = (dir: string) => JSON.parse(readFileSync(configFile(dir), 'utf8')) as {
  currentProfile?: string;
  profiles?: Record<string, Record<string, string>>;
};
