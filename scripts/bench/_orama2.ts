import { loadCorpus, makeQueries } from './search-corpus.js';
import { create, insertMultiple, search } from '@orama/orama';
const docs = loadCorpus('/work/shared/corpus/debian.jsonl.gz');
const queries = makeQueries(docs, 60, 20261122);
const db = create({ schema: { name: 'string', title: 'string', body: 'string', section: 'enum', arch: 'enum' } });
await insertMultiple(db, docs.map((d) => ({ id: String(d.id), name: d.name, title: d.title, body: d.body, section: d.section, arch: d.arch })), 1000);
const rows: any[] = [];
for (const q of queries) {
  const t0 = performance.now();
  const r = await search(db, { term: q.text, properties: ['name', 'title', 'body'], threshold: 0, limit: 10 } as any);
  const t1 = performance.now();
  const r2 = await search(db, { term: q.words[0], properties: ['name', 'title', 'body'], threshold: 0, limit: 10 } as any);
  rows.push([q.text, +(t1 - t0).toFixed(1), r.count, +(performance.now() - t1).toFixed(1), r2.count]);
}
rows.sort((a, b) => b[1] - a[1]); console.log(rows.slice(0, 8), rows.slice(-3));
