import { CliError, ExitCode } from '../../../cmdutil/errors.js';

const MIB = 1024 * 1024;
/**
 * What one side of a run keeps, at most: its normalised answers (what a recording holds) and the
 * few raw answers later requests are built from. A run against this project's serve keeps
 * about 1 MiB; the largest answer a service of this contract sends (a page of 100 templates of
 * 256 KiB) fits. Also the most of one answer that is read.
 */
export const MAX_KEPT_BYTES = 32 * MIB;

/** The answers passed what a run keeps: the run stops (exit 9), its templates deleted all the same. */
export class AnswersTooLarge extends CliError {
  /** `subject` passed the bound (`the target's answers`, `the recording's file F`), `where` (`at STEP`). */
  constructor(subject: string, where: string) {
    super(`${subject} passed the ${MAX_KEPT_BYTES / MIB} MiB a parity run keeps (${where}); the run stopped`, ExitCode.answersTooLarge);
    this.name = 'AnswersTooLarge';
  }
}

/** The bytes one side has kept so far, refused past the bound. */
export class KeptBytes {
  private total = 0;

  constructor(
    /** Whose answers, for the message: "the target's answers", "the recording". */
    private readonly subject: string,
    private readonly limit = MAX_KEPT_BYTES,
  ) {}

  get bytes(): number {
    return this.total;
  }

  /** Counts what `step` keeps; throws AnswersTooLarge once the total passes the bound. */
  charge(bytes: number, step: string): void {
    this.total += bytes;
    if (this.total > this.limit) throw new AnswersTooLarge(this.subject, `at ${step}`);
  }

  /** Counts a value as the JSON it would be written as. */
  chargeJson(value: unknown, step: string): void {
    this.charge(value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0), step);
  }
}
