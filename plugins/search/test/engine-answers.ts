import type { ExecutionContext } from 'ava';
import type { TestRuntime } from 'vela/testing';
import { QUERIES, summary } from './fixtures/engine-parity.js';
import { createSite, type Doc, importDocs, search } from './fixtures.js';

// The check every engine passes through the search service: the same documents answer the same searches as on the
// memory engine.

/** The site Sample with `docs` on each runtime, every document of each import accepted. */
export async function sampleOnEach(t: ExecutionContext, runtimes: TestRuntime[], docs: Doc[]): Promise<void> {
  for (const vela of runtimes) {
    await createSite(vela);
    t.is((await importDocs(vela, docs)).accepted, docs.length);
  }
}

/** Every parity search (QUERIES) answered by the service of `engine` as by `memory`'s, the memory engine's. */
export async function answersAsMemory(t: ExecutionContext, memory: TestRuntime, engine: TestRuntime): Promise<void> {
  for (const [query, ordered] of QUERIES) {
    const [a, b] = await Promise.all([
      search(memory, `${query}&_setlocale=en_US`),
      search(engine, `${query}&_setlocale=en_US`),
    ]);
    t.is(b.status, 200, JSON.stringify(b.body));
    t.deepEqual(summary(b.body, ordered), summary(a.body, ordered), query);
  }
}
