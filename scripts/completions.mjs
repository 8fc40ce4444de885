// Writes completions/ and docs/commands.md from the built CLI's command tree; the tests fail
// when these are stale.
// Run: npm run build && npm run completions
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const files = { bash: 'completions/reportctl.bash', zsh: 'completions/_reportctl', fish: 'completions/reportctl.fish' };
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, ['bin/reportctl.js', 'completion', shell], { encoding: 'utf8' });
  writeFileSync(file, script);
  console.log(`wrote ${file}`);
}
const reference = execFileSync(process.execPath, ['bin/reportctl.js', 'help', 'reference'], { encoding: 'utf8' });
writeFileSync('docs/commands.md', reference);
console.log('wrote docs/commands.md');
