#!/usr/bin/env node
// CommonJS (see bin/package.json): the built CLI is one CommonJS file, compiled from a V8 code
// cache of this Node's where there is one (code-cache.js).
'use strict';
const path = require('node:path');
const { loadCompiled, turnTiersOff, userCacheFolder } = require('./code-cache.js');

// Node's own compile cache serves what its module loader compiles: the packages a command
// loads on demand. It made `doctor` faster on Node 24 and slower on 22; Node 20 has none.
// In reportctl's cache folder; off, and silent, where NODE_DISABLE_COMPILE_CACHE is set or the
// folder cannot be written.
if (process.env.REPORTCTL_NO_CACHE !== '1' && Number(process.versions.node.split('.')[0]) >= 24) {
  const folder = userCacheFolder();
  if (folder !== null) require('node:module').enableCompileCache?.(path.join(folder, 'node'));
}

// One cache of the CLI per top-level command, made by its first run: each holds the code that
// command runs, and no other (one cache of everything slows the small commands). Help, the
// version and anything else share `root`. test/cli/code-cache.test.ts holds this to the tree.
const COMMANDS = new Set(['templates', 'catalogs', 'queues', 'queue-runs', 'analyses', 'api', 'config', 'auth', 'formula', 'serve', 'parity', 'admin', 'completion', '__complete', 'doctor', 'help', 'lsp']);
const kind = process.argv.slice(2).find((arg) => COMMANDS.has(arg)) ?? 'root';
// The long-running commands (a service, a comparison of two) turn Node 24's background JIT
// compilers off from the start (code-cache.js): a few ms once, and no busy stretch with them on.
if (kind === 'serve' || kind === 'parity') turnTiersOff();
loadCompiled(path.join(__dirname, '..', 'dist', 'main.cjs'), module, kind).main();
