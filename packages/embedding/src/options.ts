import { ENGLISH_STOP_WORDS } from './stop-words.js';

/** How the built-in embedder learns; every member has a default. */
export interface EmbedderOptions {
  /** Length of every vector (default 256). */
  dimensions?: number;
  /** At most this many terms, the ones found in the most texts (default 20000). */
  vocabulary?: number;
  /** Terms this many positions apart or fewer count as seen together (default 5). */
  window?: number;
  /** A term must occur in at least this many texts to be learned (default 2). */
  minCount?: number;
  /** Seed of the random projection: the same texts, options and seed give the same model (default 1). */
  seed?: number;
  /** Terms never learned (default: English function words). */
  stopWords?: Iterable<string>;
  /** Remove the direction all texts share from text vectors (default true). */
  removeCommonDirection?: boolean;
}

export interface ResolvedOptions {
  dimensions: number;
  vocabulary: number;
  window: number;
  minCount: number;
  seed: number;
  stopWords: ReadonlySet<string>;
  removeCommonDirection: boolean;
}

export const LIMITS = {
  dimensions: [1, 4096],
  // Below 2^16 terms a pair of term ids packs into one 32-bit key (see cooccurrence.ts).
  vocabulary: [1, 65535],
  window: [1, 100],
  minCount: [1, 2 ** 31 - 1],
  seed: [0, 2 ** 32 - 1],
} as const satisfies Record<string, readonly [number, number]>;

const DEFAULTS = { dimensions: 256, vocabulary: 20000, window: 5, minCount: 2, seed: 1 };

/** The options with their defaults; RangeError names the first option out of bounds. */
export function resolveOptions(options: EmbedderOptions = {}): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('embedder options must be an object');
  const integer = (name: keyof typeof LIMITS): number => {
    const value = options[name] ?? DEFAULTS[name];
    const [min, max] = LIMITS[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw new RangeError(`embedder option ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
    return value;
  };
  const removeCommonDirection = options.removeCommonDirection ?? true;
  if (typeof removeCommonDirection !== 'boolean')
    throw new RangeError('embedder option removeCommonDirection must be true or false');
  return {
    dimensions: integer('dimensions'),
    vocabulary: integer('vocabulary'),
    window: integer('window'),
    minCount: integer('minCount'),
    seed: integer('seed'),
    stopWords: stopWordSet(options.stopWords),
    removeCommonDirection,
  };
}

function stopWordSet(words: Iterable<string> | undefined): ReadonlySet<string> {
  if (words === undefined) return ENGLISH_STOP_WORDS;
  if (typeof words === 'string' || typeof (words as Iterable<string>)[Symbol.iterator] !== 'function')
    throw new RangeError('embedder option stopWords must be an iterable of words (an array or a set)');
  const set = new Set<string>();
  for (const word of words) {
    if (typeof word !== 'string') throw new RangeError('embedder option stopWords must hold only strings');
    set.add(word.normalize('NFC').toLowerCase());
  }
  return set;
}
