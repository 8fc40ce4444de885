// The least a network command can take on Node with undici: this build's undici read from its
// code cache, one GET of a template, the body printed. No commander, config, check or table.
// bench/startup.mjs runs it beside the commands, so the part of their time that is the CLI's
// own shows. Run by that bench: node bench/undici-alone.cjs TEMPLATE_ID, with
// REPORTCTL_BASE_URL and REPORTCTL_API_KEY set.
'use strict';
const path = require('node:path');
const { loadCompiled } = require('../bin/code-cache.js');

const undici = loadCompiled(path.join(__dirname, '..', 'dist', 'vendor-undici.cjs'), module);
const request = undici('undici/lib/api/api-request.js');
const Agent = undici('undici/lib/dispatcher/env-http-proxy-agent.js');
request
  .call(new Agent(), {
    origin: process.env.REPORTCTL_BASE_URL,
    path: `/api/v2/templates/${encodeURIComponent(process.argv[2])}`,
    method: 'GET',
    headers: { 'x-api-key': process.env.REPORTCTL_API_KEY },
  })
  .then(async (response) => {
    process.stdout.write(`${await response.body.text()}\n`);
    // As the CLI does: a kept-alive connection would hold the process open.
    process.exit(response.statusCode === 200 ? 0 : 1);
  });
