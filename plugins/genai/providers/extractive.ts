import { sentences, terms } from '../rag/text.js';
import type { ChatMessage, ChatProvider, Passage, ProviderEvent, ProviderRequest } from './provider.js';

export interface ComposeOptions {
  /** Most sentences in an answer. */
  maxSentences: number;
  /** Stop adding sentences past this many characters. */
  maxChars: number;
  /** Write the source number after each run of sentences from one source, as [n]. */
  cite: boolean;
}

export const DEFAULT_COMPOSE: ComposeOptions = { maxSentences: 4, maxChars: 700, cite: true };

export const NOTHING_FOUND = "I could not find anything about that in this site's documents.";
export const NO_DOCUMENTS =
  'The built-in provider answers from documents, and this conversation has none: ask a site (GET /api/sn/<site>/chat), or choose an LLM instance (llmInstanceId).';

/** Verbs after a sentence's first word that make it a definition of that word. */
const DEFINING = new Set([
  'is',
  'are',
  'was',
  'provides',
  'contains',
  'allows',
  'lets',
  'helps',
  'implements',
  'offers',
]);
const PRONOUNS = new Set(['it', 'this', 'these', 'they', 'that', 'those', 'he', 'she', 'its', 'their']);

interface Sentence {
  text: string;
  n: number;
  docRank: number;
  /** Order within the passages given. */
  order: number;
  first: boolean;
  terms: Set<string>;
  words: number;
  /** The (stemmed) word a definition sentence defines ("Vim is ..." defines vim). */
  defines: string | null;
  /** Whether it opens with a pronoun. */
  pronoun: boolean;
}

/**
 * The extractive answer: the sentences of the passages that best cover the question's terms (each term
 * weighted by how rare it is among the candidate sentences), chosen greedily so that a term already
 * covered counts less the next time (no three sentences saying the same thing), long sentences damped,
 * better-ranked documents slightly preferred; then put back in document order, each run of sentences
 * from one source followed by its number.
 */
export function composeAnswer(
  question: string,
  passages: readonly Passage[],
  options: ComposeOptions = DEFAULT_COMPOSE,
): { text: string; cited: number[] } {
  const candidates: Sentence[] = [];
  const seenText = new Set<string>();
  for (const p of passages) {
    sentences(p.text).forEach((text, i) => {
      const key = text.toLowerCase();
      if (seenText.has(key)) return;
      seenText.add(key);
      const opening = /^["'(]?([\p{L}\p{N}][\p{L}\p{N}+.-]*)\s+(\p{L}+)/u.exec(text);
      candidates.push({
        text,
        n: p.n,
        docRank: p.docRank,
        order: candidates.length,
        first: i === 0,
        terms: new Set(terms(text)),
        words: text.split(/\s+/).length,
        defines: opening && DEFINING.has(opening[2]!.toLowerCase()) ? (terms(opening[1]!)[0] ?? null) : null,
        pronoun: !!opening && PRONOUNS.has(opening[1]!.toLowerCase()),
      });
    });
  }
  const asked = [...new Set(terms(question))];
  // A question without a word that means something ("the the", "???") has nothing to be closest to.
  if (candidates.length === 0 || asked.length === 0) return { text: NOTHING_FOUND, cited: [] };
  const df = new Map<string, number>();
  for (const s of candidates) for (const t of asked) if (s.terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + candidates.length / (df.get(t) ?? candidates.length));
  const covered = new Set<string>();
  const value = (s: Sentence) => {
    let gain = 0;
    for (const t of asked) if (s.terms.has(t)) gain += idf(t) * (covered.has(t) ? 0.35 : 1);
    if (gain === 0) return 0;
    // A definition of what was asked about ("Vim is ...") answers best; a sentence that opens with a
    // pronoun ("It ...") leans on the one before it, which the answer may not show.
    if (s.defines && asked.includes(s.defines) && !covered.has(s.defines)) gain += idf(s.defines);
    const damp = (s.words > 35 ? 35 / s.words : s.words < 4 ? 0.6 : 1) * (s.pronoun ? 0.7 : 1);
    return gain * damp + 0.15 / (1 + s.docRank) + (s.first ? 0.05 : 0);
  };

  const picked: Sentence[] = [];
  let chars = 0;
  let best = 0;
  while (picked.length < options.maxSentences && chars < options.maxChars) {
    let top: Sentence | null = null;
    let topValue = 0;
    for (const s of candidates) {
      if (picked.includes(s)) continue;
      const v = value(s);
      if (v > topValue) {
        top = s;
        topValue = v;
      }
    }
    if (!top || topValue < best * 0.5) break;
    best = Math.max(best, topValue);
    picked.push(top);
    chars += top.text.length;
    for (const t of top.terms) covered.add(t);
  }

  let intro = '';
  if (picked.length === 0) {
    // Nothing in the passages shares a word with the question: say so, and show where retrieval led.
    intro = 'I found no passage that answers this directly. The closest match: ';
    picked.push(
      candidates.reduce((a, b) => (b.docRank < a.docRank || (b.docRank === a.docRank && b.order < a.order) ? b : a)),
    );
  }
  picked.sort((a, b) => a.docRank - b.docRank || a.order - b.order);
  const cited: number[] = [];
  const parts: string[] = [];
  picked.forEach((s, i) => {
    const next = picked[i + 1];
    const endsRun = !next || next.n !== s.n;
    parts.push(options.cite && endsRun ? `${s.text} [${s.n}]` : s.text);
    if (options.cite && !cited.includes(s.n)) cited.push(s.n);
  });
  return { text: intro + parts.join(' '), cited };
}

/**
 * composeAnswer as the worker pool's task runs it (extractive-task.ts). No abort signal: aborting a running
 * pool task ends its thread, which costs more to start again than the few milliseconds left to run.
 */
export type Compose = (input: ComposeInput) => Promise<{ text: string; cited: number[] }>;

export interface ComposeInput {
  question: string;
  passages: Passage[];
  options: ComposeOptions;
}

const composeHere: Compose = async (input) => composeAnswer(input.question, input.passages, input.options);

/** The answer in pieces of a few words each, whitespace kept, so a client sees it arrive. */
export function pieces(text: string, wordsPerPiece = 3): string[] {
  const tokens = text.match(/\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerPiece) out.push(tokens.slice(i, i + wordsPerPiece).join(''));
  return out;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What the built-in provider reads at most: its work grows with the text, and it answers anonymous chats.
 * A site chat hands it about 5,600 characters (8 passages of 700); a conversation pasted into a direct
 * chat is read from its start up to this bound.
 */
export const MAX_READ_CHARS = 32_000;
/** The longest question it reads, as site chat's `q`. */
export const MAX_QUESTION_CHARS = 2_000;

/** The passages in order, up to `budget` characters over all of them (the last one read cut). */
export function withinBudget(passages: readonly Passage[], budget: number): Passage[] {
  const kept: Passage[] = [];
  let left = budget;
  for (const p of passages) {
    if (left <= 0) break;
    kept.push(p.text.length <= left ? p : { ...p, text: p.text.slice(0, left) });
    left -= p.text.length;
  }
  return kept;
}

/**
 * The question is the last user message; without retrieved passages, the conversation's earlier messages are the
 * passages.
 */
function groundOf(
  messages: readonly ChatMessage[],
  passages: readonly Passage[] | undefined,
): { question: string; passages: Passage[]; cite: boolean } {
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      last = i;
      break;
    }
  }
  const question = last >= 0 ? (messages[last]!.content ?? '').slice(0, MAX_QUESTION_CHARS) : '';
  if (passages) return { question, passages: withinBudget(passages, MAX_READ_CHARS), cite: true };
  const earlier = messages
    .filter((m, i) => i !== last && m.content && m.role !== 'tool')
    .map((m, i) => ({ n: i + 1, docId: `message-${i + 1}`, title: '', url: null, text: m.content!, docRank: 0 }));
  return { question, passages: withinBudget(earlier, MAX_READ_CHARS), cite: false };
}

/**
 * The built-in provider: no model, no network. It answers from the passages retrieval found (or from the
 * conversation's own earlier messages in a direct chat) by query-focused sentence selection, and streams
 * the answer a few words at a time, yielding to the event loop between pieces so each goes out as it is
 * made. It calls no tools: an agent on it searches first, then answers (agents/agent-runner.ts).
 */
export class ExtractiveProvider implements ChatProvider {
  readonly supportsTools = false;
  readonly readsPassages = true;

  /**
   * `compose` composes the answer: the plugin passes a worker-pool task (extractive-task.ts); in this thread by
   * default.
   */
  constructor(
    private readonly options: Partial<ComposeOptions> = {},
    private readonly compose: Compose = composeHere,
  ) {}

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const ground = groundOf(request.messages, request.passages);
    const text =
      ground.passages.length === 0 && !request.passages
        ? NO_DOCUMENTS
        : (
            await this.compose({
              question: ground.question,
              passages: ground.passages,
              options: { ...DEFAULT_COMPOSE, ...this.options, cite: ground.cite },
            })
          ).text;
    for (const piece of pieces(text)) {
      request.signal.throwIfAborted();
      yield { type: 'delta', text: piece };
      await nextTurn();
    }
    yield { type: 'end', finishReason: 'stop', toolCalls: [], usage: null, model: 'extractive' };
  }
}
