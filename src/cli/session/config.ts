import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { KeyHeader } from '../../client/key-headers.js';
import type { Env } from '../iostreams/io.js';
import type { Settings } from '../cmdutil/context.js';
import { NOT_UTF8_HINT, UsageError } from '../cmdutil/errors.js';
import { decodeUtf8, NotUtf8Error } from '../../encoding/utf8.js';
import { importPackage } from '../iostreams/import-package.js';
import { closestMatch } from '../../contract/closest-match.js';

/** One named set of connection settings in the config file. */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  keyHeader?: KeyHeader;
  language?: 'en' | 'es';
}

export interface ConfigShape {
  currentProfile?: string;
  profiles?: Record<string, Profile>;
}

export const profileKeys = ['base-url', 'api-key', 'key-header', 'language'] as const;
export type ProfileKey = (typeof profileKeys)[number];
export const profileKeyNotes: Readonly<Record<ProfileKey, string>> = {
  'base-url': 'where the service is',
  'api-key': 'the key sent with every request',
  'key-header': 'the header that carries the key',
  language: 'language of messages (en, es)',
};
export const profileField: Record<ProfileKey, keyof Profile> = {
  'base-url': 'baseUrl',
  'api-key': 'apiKey',
  'key-header': 'keyHeader',
  language: 'language',
};

/**
 * Where conf keeps the file: REPORTCTL_CONFIG_DIR, or env-paths' config directory for the
 * project `reportctl` with no suffix (what `openConfig` asks conf for; a test holds the two
 * equal), then `config.json`.
 */
export function configFilePath(env: Env, system = platform(), home = homedir()): string {
  if (env.REPORTCTL_CONFIG_DIR) return resolve(env.REPORTCTL_CONFIG_DIR, 'config.json');
  let dir: string;
  if (system === 'darwin') dir = join(home, 'Library', 'Preferences', 'reportctl');
  else if (system === 'win32') dir = join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'reportctl', 'Config');
  else dir = join(env.XDG_CONFIG_HOME || join(home, '.config'), 'reportctl');
  return join(dir, 'config.json');
}

/**
 * The config file read as conf reads it (JSON; no file is an empty config; a damaged one
 * throws), without loading conf and its validator: most commands only read their settings.
 */
export function readConfig(env: Env): { path: string; config: ConfigShape } {
  const path = configFilePath(env);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, config: {} };
    throw error;
  }
  let config: unknown;
  try {
    config = JSON.parse(decodeUtf8(bytes));
  } catch (error) {
    if (error instanceof NotUtf8Error) throw new UsageError(`the config file ${path} is ${error.message}`, NOT_UTF8_HINT);
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`the config file ${path} is not valid JSON (${reason})`, 'fix it, or move it away and run `reportctl auth login` again');
  }
  return { path, config: Object.assign({}, config as ConfigShape) };
}

/** The config file for writing (mode 0600: it holds keys), through conf, loaded only here. */
export interface ConfigStore {
  path: string;
  read(): ConfigShape;
  write(config: ConfigShape): void;
}

export async function openConfig(env: Env): Promise<ConfigStore> {
  // conf reads the file its own way (bytes that are not UTF-8 become U+FFFD, written back on
  // the next change): it opens only a file that reads strictly.
  readConfig(env);
  createPrivateFolder(dirname(configFilePath(env)));
  const { default: Conf } = await importPackage('conf');
  const conf = new Conf<ConfigShape>({
    projectName: 'reportctl',
    projectSuffix: '',
    ...(env.REPORTCTL_CONFIG_DIR ? { cwd: env.REPORTCTL_CONFIG_DIR } : {}),
    configFileMode: 0o600,
  });
  return {
    path: conf.path,
    read: () => conf.store,
    write: (config) => {
      conf.store = config;
    },
  };
}

/** The config folder: only its owner may list or change it, as the file holds keys. */
export const CONFIG_FOLDER_MODE = 0o700;

/**
 * Creates the folders that are missing 0700, then sets them to it again: conf would create
 * them with the umask's mode, 0777 under umask 000, so another user could swap the file.
 * A folder that already exists is the user's: `doctor` says when it is open to others.
 */
function createPrivateFolder(folder: string): void {
  const firstCreated = mkdirSync(folder, { recursive: true, mode: CONFIG_FOLDER_MODE });
  if (firstCreated === undefined || platform() === 'win32') return;
  for (let created = folder; ; created = dirname(created)) {
    chmodSync(created, CONFIG_FOLDER_MODE);
    if (created === firstCreated || created === dirname(created)) break;
  }
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4747';
export const DEFAULT_PROFILE = 'default';

interface SettingFlags {
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
}

/** Flag > environment > profile in the config file > default. */
export function resolveSettings(flags: SettingFlags, env: Env, config: ConfigShape): Settings {
  const profileName = flags.profile ?? nonEmpty(env.REPORTCTL_PROFILE) ?? config.currentProfile ?? DEFAULT_PROFILE;
  const profile = config.profiles?.[profileName] ?? {};
  const pick = (flag: string | undefined, envName: string, fromProfile: string | undefined, fallback?: string) => {
    if (flag !== undefined) return { value: flag, source: 'flag' };
    const fromEnv = nonEmpty(env[envName]);
    if (fromEnv !== undefined) return { value: fromEnv, source: `env ${envName}` };
    if (fromProfile !== undefined) return { value: fromProfile, source: `profile ${profileName}` };
    return { value: fallback, source: 'default' };
  };
  const baseUrl = pick(flags.baseUrl, 'REPORTCTL_BASE_URL', profile.baseUrl, DEFAULT_BASE_URL);
  const apiKey = pick(flags.apiKey, 'REPORTCTL_API_KEY', profile.apiKey);
  return {
    profileName,
    baseUrl: baseUrl.value ?? DEFAULT_BASE_URL,
    ...(apiKey.value !== undefined ? { apiKey: apiKey.value } : {}),
    keyHeader: profile.keyHeader ?? 'apiKey',
    language: profile.language ?? languageFromEnv(env),
    sources: { baseUrl: baseUrl.source, apiKey: apiKey.value === undefined ? 'none' : apiKey.source },
  };
}

/** Every profile a name may choose: those in the file, and `default`, which always exists. */
export function knownProfiles(config: ConfigShape): string[] {
  return [...new Set([DEFAULT_PROFILE, ...Object.keys(config.profiles ?? {})])];
}

/** `no profile "stagin"; did you mean "staging"?`, exit 2, and how to start one of that name. */
export function noProfileError(name: string, known: readonly string[], chosenBy?: string): UsageError {
  const guess = closestMatch(name, known);
  return new UsageError(
    `no profile "${name}"${guess ? `; did you mean "${guess}"?` : ''}`,
    `${chosenBy ? `${chosenBy} names it; ` : ''}profiles: ${known.join(', ')}; \`reportctl config use --create ${name}\` starts a new one`,
  );
}

/**
 * The profile --profile or REPORTCTL_PROFILE names, when the config file has none of that
 * name: a typo must not fall back to the defaults (another service, no key) without a word.
 * Verbs that write a profile (`auth login`, `config set`) create it instead.
 */
export function unknownProfile(flags: SettingFlags, env: Env, config: ConfigShape): UsageError | undefined {
  const named = flags.profile ?? nonEmpty(env.REPORTCTL_PROFILE);
  const known = knownProfiles(config);
  if (named === undefined || known.includes(named)) return undefined;
  return noProfileError(named, known, flags.profile !== undefined ? '--profile' : 'REPORTCTL_PROFILE');
}

/**
 * A key saved in a profile with the base URL it was checked against (as `auth login` saves
 * it) goes to that service only: a --base-url or REPORTCTL_BASE_URL naming another needs a key
 * of its own, given as explicitly. `baseUrl` is the one requests would go to, normalised.
 */
export function keyForAnotherService(settings: Settings, config: ConfigShape, baseUrl: string): UsageError | undefined {
  const { apiKey: keySource, baseUrl: urlSource } = settings.sources;
  if (!keySource.startsWith('profile ') || (urlSource !== 'flag' && urlSource !== 'env REPORTCTL_BASE_URL')) return undefined;
  const savedFor = config.profiles?.[settings.profileName]?.baseUrl;
  const same = (a: string, b: string) => new URL(a).href.replace(/\/+$/, '') === new URL(b).href.replace(/\/+$/, '');
  if (savedFor === undefined || same(savedFor, baseUrl)) return undefined;
  return new UsageError(
    `the key in profile ${settings.profileName} was saved for ${savedFor}; not sending it to ${baseUrl} (from ${urlSource === 'flag' ? '--base-url' : 'REPORTCTL_BASE_URL'})`,
    `give that service's key with --api-key or REPORTCTL_API_KEY, or save one in another profile: \`reportctl auth login --base-url ${baseUrl} --profile NAME\``,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Spanish labels when the locale says so; English otherwise. */
export function languageFromEnv(env: Env): 'en' | 'es' {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return locale.toLowerCase().startsWith('es') ? 'es' : 'en';
}
