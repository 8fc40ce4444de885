import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './server.js';

/** One candidate zsh offered: the word it would insert and the line it shows for it. */
export interface ZshCandidate {
  value: string;
  display: string;
}

const dumps = tempDir('reportctl-zcompdump-');

/**
 * What an interactive zsh offers when TAB is pressed after `line`. A real `zsh -i` runs in a
 * pseudo-terminal (zsh/zpty), loads the script through compinit ($fpath) or `source`, and
 * every match the completion system adds is written to a file by a `compadd` wrapper, with
 * what zsh would display for it (for `_describe`, `value  -- description`).
 */
export async function zshComplete(
  script: string,
  line: string,
  options: { load: 'fpath' | 'source'; env?: Record<string, string>; path?: string },
): Promise<ZshCandidate[]> {
  const dir = tempDir('reportctl-zsh-');
  const capture = join(dir, 'capture');
  const functions = join(dir, 'functions');
  // compinit reads every completion function unless it has a dump: one dump per way of
  // loading, kept for this test file (the script itself is read from $fpath or sourced anew).
  const dump = join(dumps, `zcompdump-${options.load}`);
  const load =
    options.load === 'fpath'
      ? `mkdir -p ${functions} && cp ${script} ${functions}/_reportctl\nfpath=(${functions} $fpath)\nautoload -U compinit && compinit -u -d ${dump}`
      : `autoload -U compinit && compinit -u -d ${dump}\nsource ${script}`;
  const setup = join(dir, 'setup.zsh');
  writeFileSync(
    setup,
    `PROMPT='' RPROMPT=''
# Wide enough that zsh does not cut the descriptions it shows.
stty columns 500
zle_bracketed_paste=()
${load}
bindkey '^I' complete-word
zstyle ':completion:*' list-grouped false
compadd() {
  # -O, -A and -D are the completion system asking, not adding: pass them through.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return; fi
  local -a __hits __displays
  local __i
  if (( $@[(I)-d] )); then __displays=("\${(@P)\${@[$(( \${@[(i)-d]} + 1 ))]}}"); fi
  builtin compadd -A __hits -D __displays "$@"
  for (( __i = 1; __i <= $#__hits; __i++ )); do
    print -r -- "\${__hits[__i]}"$'\\t'"\${__displays[__i]:-\${__hits[__i]}}" >> ${capture}
  done
  builtin compadd "$@"
}
_capture_done() { print -r -- $'\\t'done >> ${capture}; exit }
comppostfuncs=(_capture_done)
print -r -- READY
`,
  );
  const driver = `zmodload zsh/zpty || exit 3
zpty z 'zsh -f -i'
zpty -w z ${shellQuote(`source ${setup}`)}
local out
while zpty -r z out; do [[ $out == *READY* ]] && break; done
zpty -w -n z ${shellQuote(line)}$'\\t'
while zpty -r z out; do :; done
zpty -d z
`;
  const child = spawn('zsh', ['-f', '-c', driver], {
    env: { ...process.env, ...options.env, PATH: `${options.path ? `${options.path}:` : ''}${process.env.PATH}` },
    stdio: ['ignore', 'ignore', 'pipe'],
    // A completion that never finishes leaves zsh waiting at its prompt: stop it (its pty
    // child gets SIGHUP) and fail below, instead of leaving it behind.
    timeout: 60_000,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  const rows = existsSync(capture) ? readFileSync(capture, 'utf8').split('\n').filter(Boolean) : [];
  if (rows.at(-1) !== '\tdone') throw new Error(`zsh did not finish completing ${JSON.stringify(line)}: ${stderr}`);
  return rows.slice(0, -1).map((row) => {
    const tab = row.indexOf('\t');
    return { value: row.slice(0, tab), display: row.slice(tab + 1) };
  });
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
