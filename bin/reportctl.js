#!/usr/bin/env node
// CommonJS (see bin/package.json): the built CLI is one CommonJS file, the fastest to start.
require('../dist/main.cjs');
