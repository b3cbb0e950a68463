// @vela/embedding: the built-in embedder, word vectors learned from a site's own text (PPMI of co-occurrences
// reduced by a randomized truncated SVD), so a default install searches by meaning with no model server.

export { type EmbedderOptions, LIMITS as EMBEDDER_LIMITS } from './options.js';
export { seededGaussian, seededUniform } from './random.js';
export { ENGLISH_STOP_WORDS } from './stop-words.js';
export { type TermSimilarity, TextEmbedder, trainEmbedder } from './text-embedder.js';
export { cosine } from './vector-math.js';
