import type { TextEmbedder } from '@vela/embedding';
import type { TaskRunner } from 'vela/plugin';
import type { EmbedInput } from './builtin-task.js';
import type { SiteEmbedder } from './site-embedder.js';

/** Passages per worker task: big enough to pay for the hand-over, small enough to stop soon when asked. */
const TASK_TEXTS = 256;

/**
 * A site's built-in model: its passages embedded on the worker pool (each worker loads the model file once), its
 * queries on the event loop (a query is a few dozen terms: microseconds).
 */
export class BuiltinEmbedder implements SiteEmbedder {
  constructor(
    readonly key: string,
    private readonly model: TextEmbedder,
    private readonly file: string,
    private readonly task: TaskRunner<EmbedInput, Array<Float32Array | null>>,
  ) {}

  async embedPassages(texts: string[], signal: AbortSignal): Promise<Array<Float32Array | null>> {
    const out: Array<Float32Array | null> = [];
    for (let i = 0; i < texts.length; i += TASK_TEXTS) {
      signal.throwIfAborted();
      out.push(
        ...(await this.task({ key: this.key, file: this.file, texts: texts.slice(i, i + TASK_TEXTS) }, { signal })),
      );
    }
    return out;
  }

  async embedQuery(text: string): Promise<Float32Array | null> {
    return this.model.embed(text);
  }
}
