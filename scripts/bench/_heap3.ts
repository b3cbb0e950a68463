import { loadCorpus, searchableText } from './search-corpus.js';
import { TextIndex } from '../../plugins/search/engine/text-index.js';
import { analyze } from '../../plugins/search/engine/text-analyzer.js';
const gc = (globalThis as any).gc;
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1048576; };
const docs = loadCorpus('/work/shared/corpus/debian.jsonl.gz');
const mode = process.argv[2];
let h0 = heap();
const t = new TextIndex(9);
if (mode === 'a') for (let i = 0; i < docs.length; i++) t.add(i, analyze(searchableText(docs[i]!), 9));
if (mode === 'b') { const texts = docs.map(searchableText); for (let i = 0; i < docs.length; i++) t.add(i, analyze(texts[i]!, 9)); }
if (mode === 'c') { for (let f = 0; f < docs.length; f += 2000) { const texts = docs.slice(f, f + 2000).map(searchableText); for (let i = 0; i < texts.length; i++) t.add(f + i, analyze(texts[i]!, 9)); } }
console.log(mode, (heap() - h0).toFixed(1));
const s = process.memoryUsage(); console.log(s);
(globalThis as any).keep = t;
import v8 from 'node:v8';
for (const s of v8.getHeapSpaceStatistics()) console.log(s.space_name, (s.space_used_size/1048576).toFixed(1));
