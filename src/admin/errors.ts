/** Why an admin command could not do what was asked; the CLI picks the exit code. */
export class AdminError extends Error {
  constructor(
    readonly kind: 'not-found' | 'invalid' | 'conflict' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}
