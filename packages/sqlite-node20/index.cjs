// reportctl's SQLite driver on Node.js 20 (docs/storage.md): better-sqlite3 12, as it is.
module.exports = require('better-sqlite3');
