import { genaiErrors } from '../errors.js';

/** How long a refused client is told to wait. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The bound on chats each LLM instance answers at once (its `maxConcurrent`), per process: a chat takes
 * a slot before its stream opens and gives it back when it ends, however it ends; past the bound the
 * request is refused with 503 and Retry-After, before anything is sent to the model.
 */
export class GenerationSlots {
  private readonly active = new Map<string, number>();

  acquire(instance: { id: string; title: string; maxConcurrent: number }): () => void {
    const busy = this.active.get(instance.id) ?? 0;
    if (busy >= instance.maxConcurrent) throw genaiErrors.busy(instance.title, RETRY_AFTER_SECONDS);
    this.active.set(instance.id, busy + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.active.get(instance.id) ?? 1) - 1;
      if (left <= 0) this.active.delete(instance.id);
      else this.active.set(instance.id, left);
    };
  }

  inFlight(instanceId: string): number {
    return this.active.get(instanceId) ?? 0;
  }
}
