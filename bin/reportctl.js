#!/usr/bin/env node
// CommonJS (see bin/package.json): the built CLI is one CommonJS file, compiled from the
// build's V8 code cache where there is one (code-cache.js).
'use strict';
require('./jit-tiers.js');
const path = require('node:path');
const { loadCompiled } = require('./code-cache.js');

// Node's own compile cache serves what its module loader compiles: the packages a command
// loads on demand. It made `doctor` faster on Node 24 and slower on 22; Node 20 has none.
// Off, and silent, where NODE_DISABLE_COMPILE_CACHE is set or its folder cannot be written.
if (!process.env.REPORTCTL_WRITE_CODE_CACHE && Number(process.versions.node.split('.')[0]) >= 24) require('node:module').enableCompileCache?.();

// Two caches of the CLI: one made by `formula check` for the offline commands, one by
// `templates list` that also holds the client's code (one cache of both slows the offline ones).
// Every top-level command is here or is offline (test/cli/code-cache.test.ts holds the two to the tree).
const CLIENT_GROUPS = new Set(['parity', 'templates', 'catalogs', 'queues', 'queue-runs', 'analyses', 'api', 'auth', 'doctor', 'lsp', '__complete']);
const kind = process.argv.slice(2).some((arg) => CLIENT_GROUPS.has(arg)) ? 'client' : undefined;
loadCompiled(path.join(__dirname, '..', 'dist', 'main.cjs'), module, kind).main();
