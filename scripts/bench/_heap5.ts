import { loadCorpus } from './search-corpus.js';
import { VelaSystem } from './search-systems.js';
import v8 from 'node:v8';
const docs = loadCorpus('/work/shared/corpus/debian.jsonl.gz');
const mode = process.argv[2];
if (mode === 'engine') { const s = new VelaSystem('x'); await s.build(docs); (globalThis as any).keep = s; }
(globalThis as any).docs = docs;
(globalThis as any).gc();
v8.writeHeapSnapshot(`/tmp/fx/e-${mode}.heapsnapshot`);
