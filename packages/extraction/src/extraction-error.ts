/** Why a document could not be extracted. */
export type ExtractionErrorCode =
  | 'unsupported_type' // not a format this module reads
  | 'corrupt_content' // claims to be a format but does not parse as it
  | 'encrypted_content' // a password-protected PDF
  | 'too_large' // over the caller's size limit
  | 'timeout'; // took longer than the caller's time limit

const CODES: readonly ExtractionErrorCode[] = [
  'unsupported_type',
  'corrupt_content',
  'encrypted_content',
  'too_large',
  'timeout',
];

/** The one error extraction throws for bad input; anything else is a bug. */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';

  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
  }

  /**
   * Structured clone (the worker pool's channel) keeps an Error's message and cause but drops its name
   * and own properties; the code therefore travels in the cause, and `fromTransported` restores the class.
   */
  toTransportable(): Error {
    return new Error(this.message, { cause: { extractionErrorCode: this.code } });
  }

  /** The ExtractionError a worker threw, or the error unchanged when it was something else. */
  static fromTransported(error: unknown): unknown {
    if (error instanceof ExtractionError) return error;
    const code = (error as { cause?: { extractionErrorCode?: unknown } } | null)?.cause?.extractionErrorCode;
    if (error instanceof Error && typeof code === 'string' && (CODES as readonly string[]).includes(code)) {
      return new ExtractionError(code as ExtractionErrorCode, error.message);
    }
    return error;
  }
}
