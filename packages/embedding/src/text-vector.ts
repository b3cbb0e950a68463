import type { EmbedderModel } from './model-format.js';
import { normalizeInPlace, removeComponent } from './vector-math.js';

/**
 * A text's vector from its term ids (repeats included): the sum of its terms' word vectors, each weighted by
 * idf · (1 + ln tf) so rare, repeated terms say the most; the common direction removed; unit length. Null
 * when no id is given or the sum comes out zero.
 */
export function textVector(ids: Iterable<number>, model: EmbedderModel): Float32Array | null {
  const frequency = new Map<number, number>();
  for (const id of ids) frequency.set(id, (frequency.get(id) ?? 0) + 1);
  if (frequency.size === 0) return null;
  const d = model.dimensions;
  const sum = new Float64Array(d);
  for (const [id, tf] of frequency) {
    const weight = model.idf[id]! * (1 + Math.log(tf));
    const base = id * d;
    for (let i = 0; i < d; i++) sum[i]! += weight * model.vectors[base + i]!;
  }
  if (model.common) removeComponent(sum, model.common);
  if (!normalizeInPlace(sum)) return null;
  return Float32Array.from(sum);
}
