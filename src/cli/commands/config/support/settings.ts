import { keyHeaders } from '../../../../client/key-headers.js';
import { resolveSettings, unknownProfile, type ConfigShape, type ProfileKey } from '../../../session/config.js';
import type { Env } from '../../../iostreams/io.js';
import { UsageError } from '../../../cmdutil/errors.js';

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

/** The keys the local service issues: `rctl_` and 32 random bytes in base64url. */
const LOCAL_KEY = /^rctl_[A-Za-z0-9_-]{43}$/;
/** Any service's key: one header value of visible ASCII, long enough to be a secret. */
const ANY_KEY = /^[\x21-\x7e]{16,512}$/;

/**
 * A key as it is saved, or a usage error: a truncated or mistyped paste is refused here, not
 * saved to fail later with a 401. Other services' keys need only fit in a header.
 */
function checkKeyShape(key: string): string {
  const hint = 'copy the whole key; prefer `reportctl auth login`, which also checks it with the service';
  if (key.startsWith('rctl_') && !LOCAL_KEY.test(key)) {
    throw new UsageError(`api-key: not a whole key (\`rctl_\` and 43 letters, digits, \`-\` or \`_\`; this one has ${key.length - 5} after the prefix)`, hint);
  }
  if (!ANY_KEY.test(key)) throw new UsageError('api-key: a key is 16 to 512 visible ASCII characters, with no spaces', hint);
  return key;
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
      return checkKeyShape(text);
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
