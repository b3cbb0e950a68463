// A worker-pool task (piscina): extraction off the event loop that serves HTTP. Register it with
// ctx.task(new URL('./extract-task.ts', import.meta.url)) and call it through createPooledExtract.
import { extractContent } from './extract.js';
import { ExtractionError } from './extraction-error.js';
import type { ExtractedContent, ExtractInput } from './types.js';

/**
 * The payload arrives by structured clone: `bytes` is a Uint8Array (a Buffer arrives as a plain
 * Uint8Array too). An ExtractionError is rethrown in a form that keeps its code across the thread
 * boundary (see ExtractionError.toTransportable).
 */
export default async function extractTask(input: ExtractInput): Promise<ExtractedContent> {
  try {
    return await extractContent(input);
  } catch (error) {
    throw error instanceof ExtractionError ? error.toTransportable() : error;
  }
}
