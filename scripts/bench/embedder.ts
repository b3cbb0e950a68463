// The built-in embedder on the Debian corpus: training time and memory, time to embed a document, and the
// nearest terms of a few words as a sanity check of what it learned.
// Run: node --import=tsx scripts/bench/embedder.ts [corpus.jsonl.gz]
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { cosine, TextEmbedder } from '@vela/embedding';
import { loadCorpus } from './search-corpus.js';

const CORPUS = process.argv[2] ?? '/work/shared/corpus/debian.jsonl.gz';
const PROBES = ['browser', 'editor', 'database', 'compression', 'game', 'font'];
const QUERIES = ['program to write code with syntax colouring', 'shrink files to save disk space', 'play chess'];

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

const documents = loadCorpus(CORPUS);
const texts = documents.map((d) => `${d.name} ${d.title} ${d.body}`);
console.log(`cpu: ${os.cpus()[0]?.model} × ${os.cpus().length}, node ${process.version}`);
console.log(`corpus: ${texts.length} documents`);

const started = performance.now();
const cpuBefore = process.cpuUsage();
const embedder = TextEmbedder.train(texts);
const trainMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const memory = process.memoryUsage();
// CPU time as well as wall time: on a shared machine the wall time includes waiting for a core.
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(
  `train: ${(trainMs / 1000).toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s CPU, vocabulary ${embedder.vocabularySize}, ${embedder.dimensions} dimensions`,
);
console.log(
  `memory after training: rss ${megabytes(memory.rss)}, heap ${megabytes(memory.heapUsed)}, buffers ${megabytes(memory.arrayBuffers)}`,
);
console.log(`peak rss: ${megabytes(process.resourceUsage().maxRSS * 1024)}`);
console.log(`model: ${megabytes(embedder.serialize().length)}, version ${embedder.version}`);

const vectors: Array<Float32Array | null> = [];
const embedStarted = performance.now();
for (const text of texts) vectors.push(embedder.embed(text));
const embedMs = performance.now() - embedStarted;
console.log(
  `embed: ${((embedMs * 1000) / texts.length).toFixed(1)} µs per document (${texts.length} documents, ${vectors.filter((v) => v === null).length} null)`,
);

for (const probe of PROBES) {
  const near = embedder.nearestTerms(probe, 8).map(({ term, score }) => `${term} ${score.toFixed(2)}`);
  console.log(`near ${probe}: ${near.join(', ')}`);
}
for (const query of QUERIES) {
  const vector = embedder.embed(query);
  if (!vector) continue;
  const best = vectors
    .map((v, i) => ({ i, score: v ? cosine(vector, v) : -1 }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map(({ i, score }) => `${documents[i]!.name} ${score.toFixed(2)}`);
  console.log(`"${query}": ${best.join(', ')}`);
}
