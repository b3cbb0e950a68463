/**
 * Maps items with up to `width` calls in flight and yields the results in input order, so extraction on
 * the worker pool overlaps with reading the next files. `fn` must not reject: a rejection could not be
 * reported in order, so callers turn failures into values.
 */
export async function* readAhead<T, R>(
  items: AsyncIterable<T>,
  width: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  for await (const item of items) {
    pending.push(fn(item));
    if (pending.length >= width) yield await pending.shift()!;
  }
  while (pending.length > 0) yield await pending.shift()!;
}
