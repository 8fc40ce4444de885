/** The database file cannot be used: not ours, corrupt, too new, or unreadable. */
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
  constructor(
    readonly path: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot use database ${path}: ${reason}`, options);
  }
}

/** A fixture file that refers to something that does not exist; nothing of it was written. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
  constructor(
    /** Where in the fixtures, e.g. `runs.2.queue`. */
    readonly at: string,
    message: string,
  ) {
    super(`${at}: ${message}`);
  }
}
