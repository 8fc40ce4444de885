#!/usr/bin/env node
// CommonJS (see bin/package.json): the built CLI is one CommonJS file, the fastest to start,
// compiled from the build's V8 code cache where there is one (see code-cache.js).
//
// On Node 24 and later, Node's own compile cache (module.enableCompileCache, on disk) also
// serves what its module loader compiles: the packages a command loads on demand. Measured
// (bench/startup.mjs, and instruction counts), it makes `doctor` cheaper on Node 24 but dearer
// on Node 22, which is why 22 goes without; Node 20 has none. For dist/main.cjs and
// dist/vendor-*.cjs the build's cache stays on every version: made after a real run, it holds
// more compiled code than Node's and starts faster.
'use strict';
const path = require('node:path');
const { loadCompiled, prepareCompiled } = require('./code-cache.js');

// Off, and silent, where NODE_DISABLE_COMPILE_CACHE is set or its folder cannot be written.
if (!process.env.REPORTCTL_WRITE_CODE_CACHE && Number(process.versions.node.split('.')[0]) >= 24) require('node:module').enableCompileCache?.();

// The CLI's cache comes in two kinds: one made by `formula check`, for the offline commands, and
// one by `templates list`, which also holds the client's code (the first would leave it to be
// compiled at every run; one cache holding both would slow the offline commands).
const CLIENT_GROUPS = new Set(['templates', 'catalogs', 'queues', 'queue-runs', 'analyses', 'api', 'auth', 'doctor']);
const kind = process.argv.slice(2).some((arg) => CLIENT_GROUPS.has(arg)) ? 'client' : undefined;
const dist = path.join(__dirname, '..', 'dist');
if (kind === 'client') {
  // The HTTP parser compiles on another thread while the CLI is read and runs (http-parser.js).
  const parser = require('./http-parser.js');
  parser.startParserCompile(dist);
  const cli = prepareCompiled(path.join(dist, 'main.cjs'), module, kind);
  parser.whenParserCompileStarts(() => cli().main({ parserReady: parser.parserReady() }));
} else {
  loadCompiled(path.join(dist, 'main.cjs'), module, kind).main({});
}
