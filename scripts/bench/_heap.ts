import { loadCorpus } from './search-corpus.js';
import { VelaSystem } from './search-systems.js';
import { TextIndex } from '../../plugins/search/engine/text-index.js';
import { analyze } from '../../plugins/search/engine/text-analyzer.js';
import { searchableText } from './search-corpus.js';
const gc = (globalThis as any).gc;
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1048576; };
const docs = loadCorpus('/work/shared/corpus/debian.jsonl.gz');
let h0 = heap();
const mode = process.argv[2];
if (mode === 'text') {
  const t = new TextIndex(9);
  for (let i = 0; i < docs.length; i++) t.add(i, analyze(searchableText(docs[i]!), 9));
  console.log('text index', (heap() - h0).toFixed(1));
  (globalThis as any).keep = t;
} else {
  let s: VelaSystem | null = new VelaSystem('x');
  await s.build(docs);
  console.log('engine', (heap() - h0).toFixed(1));
  s.engine = null; s = null;
  console.log('after drop', (heap() - h0).toFixed(1));
}
