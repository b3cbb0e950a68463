import { loadCorpus, searchableText } from './search-corpus.js';
import { TextIndex } from '../../plugins/search/engine/text-index.js';
import { analyze } from '../../plugins/search/engine/text-analyzer.js';
import v8 from 'node:v8';
const docs = loadCorpus('/work/shared/corpus/debian.jsonl.gz').slice(0, 20000);
const mode = process.argv[2];
const t = new TextIndex(9);
if (mode === 'a') for (let i = 0; i < docs.length; i++) t.add(i, analyze(searchableText(docs[i]!), 9));
if (mode === 'c') { for (let f = 0; f < docs.length; f += 2000) { const texts = docs.slice(f, f + 2000).map(searchableText); for (let i = 0; i < texts.length; i++) t.add(f + i, analyze(texts[i]!, 9)); } }
(globalThis as any).keep = t;
(globalThis as any).gc(); 
v8.writeHeapSnapshot(`/tmp/fx/h-${mode}.heapsnapshot`);
