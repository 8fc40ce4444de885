// The environment every benchmark that times whole processes gives both sides, the command and
// its baseline. Node reads NODE_* variables at every start (NODE_EXTRA_CA_CERTS makes Node 20
// parse a certificate file before running a line), and npm adds npm_* ones under `npm run`:
// inherited, they add the same cost to both sides and make every ratio look smaller.
const NODE_OR_NPM = /^(node|npm)_/i;

/** process.env without NODE_* and npm_* variables (and the colour switches), with `extra` on top. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (NODE_OR_NPM.test(name) || name === 'FORCE_COLOR' || name === 'NO_COLOR') continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** The line a benchmark prints to say so, naming what this run's environment had set. */
export function cleanEnvNote() {
  const names = Object.keys(process.env).filter((name) => NODE_OR_NPM.test(name));
  const node = names.filter((name) => /^node_/i.test(name));
  const npm = names.length - node.length;
  const removed = [...node, ...(npm > 0 ? [`${npm} npm_* variables`] : [])];
  return `environment: every timed process runs without NODE_* and npm_* variables (${removed.length > 0 ? `removed here: ${removed.join(', ')}` : 'none set here'})`;
}
