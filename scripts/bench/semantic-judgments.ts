// The judged queries of the semantic benchmark (scripts/bench/semantic-judgments.json): things a user might type
// whose relevant packages share no word with them, each relevant package graded by hand (2: clearly what the user
// wants, 1: related). Loading checks that rule against the corpus, so the set keeps measuring search by meaning.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tokenize } from '@vela/search-text';
import { stopWordsOf } from '../../plugins/search/suggest/stop-words.js';
import { packageRoot } from '../../runtime/paths.js';
import type { CorpusDocument } from './search-corpus.js';

export const JUDGMENTS_FILE = path.join(packageRoot, 'scripts', 'bench', 'semantic-judgments.json');

export interface JudgedQuery {
  text: string;
  /** Corpus document id → grade (2 or 1). */
  grades: Map<number, number>;
}

interface JudgmentsFile {
  rule: string;
  queries: Array<{ text: string; relevant: Record<string, 1 | 2> }>;
}

/** Every text the keyword index matches a query against: the package name, title and long description. */
const indexedText = (d: CorpusDocument) => `${d.name} ${d.title} ${d.body}`;

/** The query's words a keyword search looks for: its tokens, English stop words left out. */
export function queryWords(text: string): string[] {
  const stopWords = stopWordsOf('en_US');
  return [...new Set(tokenize(text))].filter((word) => !stopWords.has(word));
}

/** A word and its plain plural or singular: the analyser does not stem, but the rule should not hinge on an "s". */
const forms = (word: string) => [word, `${word}s`, ...(word.endsWith('s') ? [word.slice(0, -1)] : [])];

/**
 * The judged queries with their packages' corpus ids. Throws, naming every (query, package) pair that breaks the
 * rule: a package the corpus lacks, a grade other than 1 or 2, or a query word in the package's indexed text.
 */
export function loadJudgments(documents: CorpusDocument[], file = JUDGMENTS_FILE): JudgedQuery[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as JudgmentsFile;
  const byName = new Map(documents.map((d) => [d.name, d]));
  const broken: string[] = [];
  const queries = parsed.queries.map(({ text, relevant }) => {
    const words = queryWords(text);
    const grades = new Map<number, number>();
    for (const [name, grade] of Object.entries(relevant)) {
      const document = byName.get(name);
      if (!document) {
        broken.push(`"${text}" → ${name}: not in the corpus`);
        continue;
      }
      if (grade !== 1 && grade !== 2) broken.push(`"${text}" → ${name}: grade ${grade}, not 1 or 2`);
      const tokens = new Set(tokenize(indexedText(document)));
      const shared = words.filter((word) => forms(word).some((form) => tokens.has(form)));
      if (shared.length > 0) broken.push(`"${text}" → ${name}: shares ${shared.join(', ')}`);
      grades.set(document.id, grade);
    }
    return { text, grades };
  });
  if (broken.length > 0) throw new Error(`${file} breaks its rule:\n  ${broken.join('\n  ')}`);
  return queries;
}

/** nDCG@k of one ranked list of ids (gain 2^grade − 1, log2 discount), against the ideal order of the grades. */
export function ndcgAt(k: number, ranked: number[], grades: Map<number, number>): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + gain(grades.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...grades.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}
