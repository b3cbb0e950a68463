import { loadCorpus, makeQueries } from './search-corpus.js';
import { create, insertMultiple, search } from '@orama/orama';
const docs = loadCorpus('/work/shared/corpus/debian.jsonl.gz');
const queries = makeQueries(docs, 60, 20261122);
const db = create({ schema: { name: 'string', title: 'string', body: 'string', section: 'enum', arch: 'enum', priority: 'enum', tags: 'enum[]', size: 'number' } });
await insertMultiple(db, docs.map((d) => ({ id: String(d.id), name: d.name, title: d.title, body: d.body, section: d.section, arch: d.arch, priority: d.priority, tags: d.tags, size: d.size })), 1000);
for (const variant of ['full', 'nofacets', 'notags', 'nowhere']) {
  const times: number[] = []; let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    const facets: any = variant === 'nofacets' ? undefined : variant === 'notags' ? { section: { limit: 1000 }, arch: { limit: 10 } } : { section: { limit: 1000 }, arch: { limit: 10 }, tags: { limit: 5000 } };
    const r = await search(db, { term: q.text, properties: ['name', 'title', 'body'], where: variant === 'nowhere' ? undefined : { [q.filter.field]: { eq: q.filter.value } }, facets, threshold: 0, limit: 10 } as any);
    hits += r.count; times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(variant, 'p50', times[30]!.toFixed(1), 'p90', times[54]!.toFixed(1), 'max', times[59]!.toFixed(1), 'avgHits', hits / 60);
}
