// `npm run pack`: the installable package as ./reportctl.tgz (npm pack builds it first, through
// `prepare`), for `npm install -g ./reportctl.tgz`: a copy of its own, not a link to the clone.
import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';

const npm = process.env.npm_execpath;
const [packed] = JSON.parse(
  execFileSync(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'pack', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
);
renameSync(packed.filename, 'reportctl.tgz');
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
console.error(`reportctl.tgz: ${packed.entryCount} files, ${mb(packed.size)} (${mb(packed.unpackedSize)} unpacked)`);
