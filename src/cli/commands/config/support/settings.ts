import { keyHeaders } from '../../../../client/key-headers.js';
import { resolveSettings, unknownProfile, type ConfigShape, type ProfileKey } from '../../../config.js';
import type { Env } from '../../../io.js';
import { UsageError } from '../../../errors.js';

export const languages = ['en', 'es'] as const;

/** `rctl_abcd…`: enough to tell keys apart, too little to use one. */
export function redactKey(key: string): string {
  const prefix = /^[A-Za-z]+_/.exec(key)?.[0] ?? '';
  const rest = key.slice(prefix.length);
  return rest.length <= 8 ? `${prefix}…` : `${prefix}${rest.slice(0, 4)}…`;
}

/** A profile name safe as a file key and on a command line. */
export function checkProfileName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
    throw new UsageError(`profile name \`${name}\` is not allowed`, 'use letters, digits, `.`, `_` and `-`');
  }
  return name;
}

/** The value as it is stored, or a usage error that says what would be accepted. */
export function parseSettingValue(key: ProfileKey, raw: string): string {
  const text = raw.trim();
  switch (key) {
    case 'base-url': {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        throw new UsageError(`base-url: \`${raw}\` is not a URL`, 'e.g. https://reports.example.com or http://127.0.0.1:4747');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new UsageError(`base-url: \`${raw}\` is not an http(s) URL`, 'e.g. https://reports.example.com or http://127.0.0.1:4747');
      }
      if (url.search !== '' || url.hash !== '') throw new UsageError('base-url: no query string or fragment, please');
      return url.toString().replace(/\/+$/, '');
    }
    case 'api-key':
      if (text === '' || /\s/.test(text)) throw new UsageError('api-key: a key is one word with no spaces', 'prefer `reportctl auth login`, which also checks the key');
      return text;
    case 'key-header': {
      const header = keyHeaders.find((choice) => choice.toLowerCase() === text.toLowerCase());
      if (!header) throw new UsageError(`key-header: \`${raw}\` is not one of ${keyHeaders.join(', ')}`);
      return header;
    }
    case 'language': {
      const language = languages.find((choice) => choice === text.toLowerCase());
      if (!language) throw new UsageError(`language: \`${raw}\` is not one of ${languages.join(', ')}`);
      return language;
    }
  }
}

export interface SettingRow {
  key: 'profile' | ProfileKey;
  /** The api key is redacted unless asked otherwise. */
  value: string | undefined;
  source: string;
}

/**
 * Every effective setting and where it came from (flag > environment > profile > default);
 * a profile named but not in the file is a usage error.
 */
export function describeSettings(
  flags: { baseUrl?: string; apiKey?: string; profile?: string },
  env: Env,
  config: ConfigShape,
  reveal = false,
): SettingRow[] {
  const missing = unknownProfile(flags, env, config);
  if (missing) throw missing;
  const settings = resolveSettings(flags, env, config);
  const name = settings.profileName;
  const profile = config.profiles?.[name] ?? {};
  const set = (value: string | undefined) => value !== undefined && value !== '';
  const profileSource =
    flags.profile !== undefined ? 'flag' : set(env.REPORTCTL_PROFILE) ? 'env REPORTCTL_PROFILE' : config.currentProfile !== undefined ? 'config file' : 'default';
  const localeVariable = ['LC_ALL', 'LC_MESSAGES', 'LANG'].find((variable) => set(env[variable]));
  return [
    { key: 'profile', value: name, source: profileSource },
    { key: 'base-url', value: settings.baseUrl, source: settings.sources.baseUrl },
    {
      key: 'api-key',
      value: settings.apiKey === undefined ? undefined : reveal ? settings.apiKey : redactKey(settings.apiKey),
      source: settings.sources.apiKey,
    },
    { key: 'key-header', value: settings.keyHeader, source: profile.keyHeader !== undefined ? `profile ${name}` : 'default' },
    {
      key: 'language',
      value: settings.language,
      source: profile.language !== undefined ? `profile ${name}` : localeVariable ? `env ${localeVariable}` : 'default',
    },
  ];
}
