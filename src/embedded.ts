// The embedded service and its administration: everything `serve` and `admin` need, built
// into its own bundle (dist/embedded.cjs) so no other command pays to load it.
export { startServer } from './server/listen.js';
export { defaultDatabasePath } from './server/data-dir.js';
export { openStore } from './server/open-store.js';
export * as adminOperations from './admin/operations.js';
export { AdminError } from './admin/errors.js';
export * as adminSnapshots from './admin/snapshot.js';
export * as adminFaults from './admin/faults.js';
export { servingHooks } from './admin/serving.js';
export { snapshotJsonSchema } from './contract/snapshot.js';
export { serviceOpenApiDocument } from './server/routes/service.js';
export { driverFor, sqliteDriver } from './server/store/driver.js';
