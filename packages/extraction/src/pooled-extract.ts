import { ExtractionError } from './extraction-error.js';
import { checkImagePixels } from './pixel-limit.js';
import type { ExtractedContent, ExtractInput } from './types.js';

/** A worker-pool task runner, as ctx.task or WorkerPool.task return it. */
export type ExtractTaskRunner = (input: ExtractInput, options?: { signal?: AbortSignal }) => Promise<ExtractedContent>;

/** Extraction on the pool: an ExtractionError thrown in the worker comes back as one, with its code. */
export type PooledExtract = (input: ExtractInput, options?: { signal?: AbortSignal }) => Promise<ExtractedContent>;

/**
 * Runs extraction on the pool through the extract-task runner, and turns errors from the worker back
 * into ExtractionError with their code. An image over the pixel limit is refused from its header first,
 * without waiting for a thread.
 */
export function createPooledExtract(run: ExtractTaskRunner): PooledExtract {
  return async (input, options) => {
    checkImagePixels(input);
    try {
      return await run(input, options);
    } catch (error) {
      throw ExtractionError.fromTransported(error);
    }
  };
}

/** URL of the task module, for ctx.task / WorkerPool.task: `ctx.task(EXTRACT_TASK_FILE)`. */
export const EXTRACT_TASK_FILE = new URL('./extract-task.ts', import.meta.url);
