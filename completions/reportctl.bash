# bash completion for reportctl (generated from the command tree: reportctl completion bash)
# Load it with:  source <(reportctl completion bash)
_reportctl_subcommands() {
  case "$1" in
    '') echo 'templates catalogs queues queue-runs analyses api config auth formula serve parity admin completion doctor lsp help' ;;
    'templates') echo 'list get presets create replace edit delete validate schema preview pull diff apply show-plan' ;;
    'catalogs') echo 'report-types statistics vi-defaults' ;;
    'queues') echo 'list' ;;
    'queue-runs') echo 'list get watch' ;;
    'analyses') echo 'list' ;;
    'config') echo 'get set list use' ;;
    'auth') echo 'login logout status' ;;
    'formula') echo 'check eval validate' ;;
    'admin') echo 'accounts keys queues queue-runs seed catalogs export import reset faults' ;;
    'admin accounts') echo 'create list set-limit' ;;
    'admin keys') echo 'create revoke' ;;
    'admin queues') echo 'create' ;;
    'admin queue-runs') echo 'enqueue advance cancel' ;;
    'admin catalogs') echo 'import' ;;
    'admin faults') echo 'add list clear' ;;
    'help') echo 'reference' ;;
  esac
}
_reportctl_verb() {
  case "$1" in
    '|templates') echo 'templates' ;;
    '|catalogs') echo 'catalogs' ;;
    '|queues') echo 'queues' ;;
    '|queue-runs') echo 'queue-runs' ;;
    '|analyses') echo 'analyses' ;;
    '|api') echo 'api' ;;
    '|config') echo 'config' ;;
    '|auth') echo 'auth' ;;
    '|formula') echo 'formula' ;;
    '|serve') echo 'serve' ;;
    '|parity') echo 'parity' ;;
    '|admin') echo 'admin' ;;
    '|completion') echo 'completion' ;;
    '|doctor') echo 'doctor' ;;
    '|lsp') echo 'lsp' ;;
    '|help') echo 'help' ;;
    'templates|list') echo 'list' ;;
    'templates|ls') echo 'list' ;;
    'templates|get') echo 'get' ;;
    'templates|show') echo 'get' ;;
    'templates|view') echo 'get' ;;
    'templates|presets') echo 'presets' ;;
    'templates|create') echo 'create' ;;
    'templates|replace') echo 'replace' ;;
    'templates|edit') echo 'edit' ;;
    'templates|delete') echo 'delete' ;;
    'templates|rm') echo 'delete' ;;
    'templates|validate') echo 'validate' ;;
    'templates|schema') echo 'schema' ;;
    'templates|preview') echo 'preview' ;;
    'templates|pull') echo 'pull' ;;
    'templates|diff') echo 'diff' ;;
    'templates|apply') echo 'apply' ;;
    'templates|show-plan') echo 'show-plan' ;;
    'catalogs|report-types') echo 'report-types' ;;
    'catalogs|statistics') echo 'statistics' ;;
    'catalogs|vi-defaults') echo 'vi-defaults' ;;
    'catalogs|vegetation-index-defaults') echo 'vi-defaults' ;;
    'queues|list') echo 'list' ;;
    'queues|ls') echo 'list' ;;
    'queue-runs|list') echo 'list' ;;
    'queue-runs|ls') echo 'list' ;;
    'queue-runs|get') echo 'get' ;;
    'queue-runs|show') echo 'get' ;;
    'queue-runs|view') echo 'get' ;;
    'queue-runs|watch') echo 'watch' ;;
    'analyses|list') echo 'list' ;;
    'analyses|ls') echo 'list' ;;
    'config|get') echo 'get' ;;
    'config|set') echo 'set' ;;
    'config|list') echo 'list' ;;
    'config|ls') echo 'list' ;;
    'config|use') echo 'use' ;;
    'auth|login') echo 'login' ;;
    'auth|logout') echo 'logout' ;;
    'auth|status') echo 'status' ;;
    'formula|check') echo 'check' ;;
    'formula|eval') echo 'eval' ;;
    'formula|validate') echo 'validate' ;;
    'admin|accounts') echo 'accounts' ;;
    'admin|keys') echo 'keys' ;;
    'admin|queues') echo 'queues' ;;
    'admin|queue-runs') echo 'queue-runs' ;;
    'admin|seed') echo 'seed' ;;
    'admin|catalogs') echo 'catalogs' ;;
    'admin|export') echo 'export' ;;
    'admin|import') echo 'import' ;;
    'admin|reset') echo 'reset' ;;
    'admin|faults') echo 'faults' ;;
    'admin accounts|create') echo 'create' ;;
    'admin accounts|list') echo 'list' ;;
    'admin accounts|set-limit') echo 'set-limit' ;;
    'admin keys|create') echo 'create' ;;
    'admin keys|revoke') echo 'revoke' ;;
    'admin queues|create') echo 'create' ;;
    'admin queue-runs|enqueue') echo 'enqueue' ;;
    'admin queue-runs|advance') echo 'advance' ;;
    'admin queue-runs|cancel') echo 'cancel' ;;
    'admin catalogs|import') echo 'import' ;;
    'admin faults|add') echo 'add' ;;
    'admin faults|list') echo 'list' ;;
    'admin faults|clear') echo 'clear' ;;
    'help|reference') echo 'reference' ;;
  esac
}
_reportctl_flags() {
  case "$1" in
    '') echo '--version --json --jq --no-color --no-input --verbose --base-url --api-key --profile --help' ;;
    'templates') echo '--help' ;;
    'templates list') echo '--analysis-type --report-type --report-category --page --limit --all --wide --help' ;;
    'templates get') echo '--help' ;;
    'templates presets') echo '--page --limit --all --wide --help' ;;
    'templates create') echo '--file --from-preset --name --help' ;;
    'templates replace') echo '--file --help' ;;
    'templates edit') echo '--help' ;;
    'templates delete') echo '--yes --help' ;;
    'templates validate') echo '--file --offline --unique-names --help' ;;
    'templates schema') echo '--help' ;;
    'templates preview') echo '--file --orientation --out --width --watch --help' ;;
    'templates pull') echo '--force --help' ;;
    'templates diff') echo '--prune --format --previews --previews-url --out --help' ;;
    'templates apply') echo '--prune --plan --dry-run --yes --help' ;;
    'templates show-plan') echo '--format --previews-url --help' ;;
    'catalogs') echo '--help' ;;
    'catalogs report-types') echo '--analysis-type --help' ;;
    'catalogs statistics') echo '--help' ;;
    'catalogs vi-defaults') echo '--help' ;;
    'queues') echo '--help' ;;
    'queues list') echo '--page --limit --all --wide --help' ;;
    'queue-runs') echo '--help' ;;
    'queue-runs list') echo '--status --page --limit --all --wide --help' ;;
    'queue-runs get') echo '--help' ;;
    'queue-runs watch') echo '--interval --timeout --max-unreachable --exit-status --help' ;;
    'analyses') echo '--help' ;;
    'analyses list') echo '--lot --analysis-type --status --page --limit --all --wide --help' ;;
    'api') echo '--field --input --help' ;;
    'config') echo '--help' ;;
    'config get') echo '--reveal --help' ;;
    'config set') echo '--help' ;;
    'config list') echo '--help' ;;
    'config use') echo '--create --help' ;;
    'auth') echo '--help' ;;
    'auth login') echo '--with-key-stdin --help' ;;
    'auth logout') echo '--help' ;;
    'auth status') echo '--help' ;;
    'formula') echo '--help' ;;
    'formula check') echo '--file --remote-rules --help' ;;
    'formula eval') echo '--band --eps --L --help' ;;
    'formula validate') echo '--help' ;;
    'serve') echo '--host --allow-host --port --db --demo --simulate --step-seconds --reads-per-minute --writes-per-minute --rate-window-seconds --max-in-flight --no-access-log --import --export-on-exit --fault --seed --exec --help' ;;
    'parity') echo '--record --replay --other-account-key --sub-user-key --ignore --ignore-file --budget --max-time --only --cleanup --help' ;;
    'admin') echo '--help' ;;
    'admin accounts') echo '--help' ;;
    'admin accounts create') echo '--db --name --template-limit --help' ;;
    'admin accounts list') echo '--db --help' ;;
    'admin accounts set-limit') echo '--db --help' ;;
    'admin keys') echo '--help' ;;
    'admin keys create') echo '--db --account --sub-user --help' ;;
    'admin keys revoke') echo '--db --help' ;;
    'admin queues') echo '--help' ;;
    'admin queues create') echo '--db --account --name --step --help' ;;
    'admin queue-runs') echo '--help' ;;
    'admin queue-runs enqueue') echo '--db --queue --name --estimated-ha --fail-at-step --help' ;;
    'admin queue-runs advance') echo '--db --help' ;;
    'admin queue-runs cancel') echo '--db --help' ;;
    'admin seed') echo '--db --account --file --help' ;;
    'admin catalogs') echo '--help' ;;
    'admin catalogs import') echo '--db --file --help' ;;
    'admin export') echo '--db --file --schema --help' ;;
    'admin import') echo '--db --file --replace --help' ;;
    'admin reset') echo '--db --yes --help' ;;
    'admin faults') echo '--help' ;;
    'admin faults add') echo '--db --route --status --latency --reset-connection --rate --count --account --help' ;;
    'admin faults list') echo '--db --help' ;;
    'admin faults clear') echo '--db --help' ;;
    'completion') echo '--help' ;;
    'doctor') echo '--help' ;;
    'lsp') echo '--stdio --offline --help' ;;
    'help') echo '--help' ;;
    'help reference') echo '--man --help' ;;
  esac
}
_reportctl_value_flags() {
  case "$1" in
    '') echo '--jq --base-url --api-key --profile' ;;
    'templates list') echo '--analysis-type --report-type --report-category --page --limit' ;;
    'templates presets') echo '--page --limit' ;;
    'templates create') echo '--file --from-preset --name' ;;
    'templates replace') echo '--file' ;;
    'templates validate') echo '--file' ;;
    'templates preview') echo '--file --orientation --out --width' ;;
    'templates diff') echo '--format --previews --previews-url --out' ;;
    'templates apply') echo '--plan' ;;
    'templates show-plan') echo '--format --previews-url' ;;
    'catalogs report-types') echo '--analysis-type' ;;
    'queues list') echo '--page --limit' ;;
    'queue-runs list') echo '--status --page --limit' ;;
    'queue-runs watch') echo '--interval --timeout --max-unreachable' ;;
    'analyses list') echo '--lot --analysis-type --status --page --limit' ;;
    'api') echo '--field --input' ;;
    'formula check') echo '--file' ;;
    'formula eval') echo '--band --eps --L' ;;
    'serve') echo '--host --allow-host --port --db --step-seconds --reads-per-minute --writes-per-minute --rate-window-seconds --max-in-flight --import --export-on-exit --fault --seed --exec' ;;
    'parity') echo '--record --replay --other-account-key --sub-user-key --ignore --ignore-file --budget --max-time --only' ;;
    'admin accounts create') echo '--db --name --template-limit' ;;
    'admin accounts list') echo '--db' ;;
    'admin accounts set-limit') echo '--db' ;;
    'admin keys create') echo '--db --account --sub-user' ;;
    'admin keys revoke') echo '--db' ;;
    'admin queues create') echo '--db --account --name --step' ;;
    'admin queue-runs enqueue') echo '--db --queue --name --estimated-ha --fail-at-step' ;;
    'admin queue-runs advance') echo '--db' ;;
    'admin queue-runs cancel') echo '--db' ;;
    'admin seed') echo '--db --account --file' ;;
    'admin catalogs import') echo '--db --file' ;;
    'admin export') echo '--db --file' ;;
    'admin import') echo '--db --file' ;;
    'admin reset') echo '--db' ;;
    'admin faults add') echo '--db --route --status --latency --rate --count --account' ;;
    'admin faults list') echo '--db' ;;
    'admin faults clear') echo '--db' ;;
    'help reference') echo '--man' ;;
  esac
}
_reportctl_choices() {
  case "$1" in
    'templates list|--analysis-type') echo 'counting replanting path' ;;
    'templates list|--report-category') echo 'general vegetation_index' ;;
    'templates create|--from-preset') echo '@preset-ids' ;;
    'templates preview|--orientation') echo 'portrait landscape' ;;
    'templates diff|--format') echo 'text markdown' ;;
    'templates show-plan|--format') echo 'text markdown' ;;
    'catalogs report-types|--analysis-type') echo 'counting replanting path' ;;
    'queue-runs list|--status') echo 'pending claimed running completed failed cancelled' ;;
    'analyses list|--analysis-type') echo 'counting replanting path' ;;
    'analyses list|--status') echo 'completed failed' ;;
    'parity|--record') echo '%directories' ;;
    'parity|--replay') echo '%directories' ;;
    'help reference|--man') echo '%directories' ;;
  esac
}
_reportctl_first_argument() {
  case "$1" in
    'templates get') echo '@template-ids' ;;
    'templates replace') echo '@template-ids' ;;
    'templates edit') echo '@template-ids' ;;
    'templates delete') echo '@template-ids' ;;
    'templates preview') echo '@template-ids' ;;
    'templates pull') echo '%directories' ;;
    'templates diff') echo '%directories' ;;
    'templates apply') echo '%directories' ;;
    'queue-runs get') echo '@run-ids' ;;
    'queue-runs watch') echo '@run-ids' ;;
    'config get') echo 'base-url api-key key-header language' ;;
    'config set') echo 'base-url api-key key-header language' ;;
    'completion') echo 'bash zsh fish' ;;
  esac
}
_reportctl_ids() {
  # Ids from the service with the profile's key; silent and quick on any failure.
  command reportctl __complete "$1" 2>/dev/null
}
_reportctl_reply() {
  # Offers the lines of stdin that are plain ids and start with $1. Never compgen -W here: it
  # expands $(…) and backticks in its word list, and these lines come from the service.
  local line pattern='^[A-Za-z0-9_-]{1,128}$'
  COMPREPLY=()
  while IFS= read -r line; do
    [[ "$line" =~ $pattern && "$line" == "$1"* ]] && COMPREPLY+=("$line")
  done
  return 0
}
_reportctl_offer() {
  # $1: the words to offer (static, from the tables above), @kind for ids from the service, or
  # %directories for folders.
  if [[ "$1" == %directories ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -d -- "$2")
  elif [[ "$1" == @* ]]; then
    _reportctl_reply "$2" < <(_reportctl_ids "${1#@}")
  elif [[ -n "$1" ]]; then
    COMPREPLY=($(compgen -W "$1" -- "$2"))
  else
    COMPREPLY=()
  fi
}
_reportctl() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command_path="" word i skip=0 arguments=0 values= verb
  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      --) break ;;
      -*=*) continue ;;
      -*)
        case " $(_reportctl_value_flags "$command_path") $(_reportctl_value_flags '') " in *" $word "*) skip=1 ;; esac
        continue ;;
    esac
    verb="$(_reportctl_verb "$command_path|$word")"
    if [[ -n "$verb" ]]; then command_path="${command_path:+$command_path }$verb"; else ((arguments++)); fi
  done
  if [[ "$prev" == -* ]]; then
    case " $(_reportctl_value_flags "$command_path") $(_reportctl_value_flags '') " in
      *" $prev "*)
        values="$(_reportctl_choices "$command_path|$prev")"
        [[ -z "$values" ]] && values="$(_reportctl_choices "|$prev")"
        _reportctl_offer "$values" "$cur"
        return 0 ;;
    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_reportctl_flags "$command_path") $(_reportctl_flags '')" -- "$cur"))
    return 0
  fi
  local subs
  subs="$(_reportctl_subcommands "$command_path")"
  if [[ -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  fi
  ((arguments == 0)) && values="$(_reportctl_first_argument "$command_path")"
  _reportctl_offer "$values" "$cur"
}
complete -o default -F _reportctl reportctl
