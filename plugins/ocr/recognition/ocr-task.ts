// A worker-pool task (piscina): the shared extraction, which first marks the moment a pool thread takes the
// document, so that the OCR service bounds the document's running time and not its wait in the pool's queue.
import type { MessagePort } from 'node:worker_threads';
import { type ExtractedContent, type ExtractInput, ExtractionError, extractContent } from '@vela/extraction';

export interface OcrTaskInput {
  input: ExtractInput;
  /** Told (one message) when a thread starts the task; transferred with it. */
  started: MessagePort;
}

export default async function ocrTask({ input, started }: OcrTaskInput): Promise<ExtractedContent> {
  started.postMessage('started');
  started.close();
  try {
    return await extractContent(input);
  } catch (error) {
    // Structured clone drops the error's class: its code travels in a form fromTransported restores.
    throw error instanceof ExtractionError ? error.toTransportable() : error;
  }
}
