import type { KeyHeader } from '../client/key-headers.js';
import type { Env } from './io.js';
import { importPackage } from './import-package.js';

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
export const profileField: Record<ProfileKey, keyof Profile> = {
  'base-url': 'baseUrl',
  'api-key': 'apiKey',
  'key-header': 'keyHeader',
  language: 'language',
};

/** The config file (written with mode 0600: it holds keys). conf loads only when needed. */
export interface ConfigStore {
  path: string;
  read(): ConfigShape;
  write(config: ConfigShape): void;
}

export async function openConfig(env: Env): Promise<ConfigStore> {
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

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4747';
export const DEFAULT_PROFILE = 'default';

export interface Settings {
  profileName: string;
  baseUrl: string;
  apiKey?: string;
  keyHeader: KeyHeader;
  language: 'en' | 'es';
  /** Where each value came from, for `config list` and `doctor`. */
  sources: { baseUrl: string; apiKey: string };
}

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

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Spanish labels when the locale says so; English otherwise. */
export function languageFromEnv(env: Env): 'en' | 'es' {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return locale.toLowerCase().startsWith('es') ? 'es' : 'en';
}
