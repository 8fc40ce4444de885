/**
 * The environment variables reportctl reads, for people (`help reference`, man pages). A test
 * holds this list equal to what src/ reads.
 */
export const ENVIRONMENT: ReadonlyArray<readonly [name: string, meaning: string]> = [
  ['REPORTCTL_BASE_URL', 'the service URL (as --base-url)'],
  ['REPORTCTL_API_KEY', 'the API key (as --api-key, without showing in ps)'],
  ['REPORTCTL_PARITY_OTHER_ACCOUNT_KEY', "parity: another account's key (as --other-account-key, without showing in ps)"],
  ['REPORTCTL_PARITY_SUB_USER_KEY', "parity: a sub-user's key of the account (as --sub-user-key, without showing in ps)"],
  ['REPORTCTL_PROFILE', 'the configuration profile (as --profile)'],
  ['REPORTCTL_CONFIG_DIR', 'where the configuration file lives'],
  ['REPORTCTL_CACHE_DIR', 'where catalogs and compiled code are cached (default ~/.cache/reportctl; compiled code in ~/Library/Caches/reportctl on macOS, %LOCALAPPDATA%\\reportctl\\Cache on Windows)'],
  ['REPORTCTL_NO_CACHE', '1: compile the code at every start and keep no compiled code'],
  ['REPORTCTL_TIMEOUT_MS', 'how long to wait for an answer, headers and body together (default 30000)'],
  ['REPORTCTL_JQ_TIMEOUT_MS', 'how long --jq may run over one input before it is stopped (default 30000)'],
  ['REPORTCTL_JSON_ERRORS', '1: failures as one JSON line on stderr for every command, as with --json'],
  ['REPORTCTL_DEBUG', 'set: a stack trace after an unexpected error'],
  ['NO_COLOR', 'set and not empty: no colours'],
  ['FORCE_COLOR', 'colours even when not on a terminal (0 or false: never)'],
  ['CI', 'set (not 0 or false): never prompt'],
  ['EDITOR, VISUAL', 'the editor of templates edit'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'the proxy to reach the service through, and the hosts that bypass it'],
];
