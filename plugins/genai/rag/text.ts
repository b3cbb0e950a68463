// Words, terms and sentences: what retrieval and the extractive answerer compare a question with.

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** English words that say little about what a question is about. */
export const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are aren as at be because been before being below between both but by ' +
    'can cannot could did do does doing don down during each either else ever every few for from further get gets got had has have ' +
    'having he her here hers herself him himself his how however i if in into is isn it its itself just let like made make many may me ' +
    'might more most much must my myself need no nor not now of off on once one only or other ought our ours ourselves out over own ' +
    'please rather really same say says shall she should so some such than that the their theirs them themselves then there these ' +
    'they this those though through to too under until up upon us use used uses using very via want was we well were what whatever ' +
    'when where whether which while who whom whose why will with within without would yes yet you your yours yourself yourselves ' +
    'tell show give find know explain describe anything something thing things there s t'
  ).split(' '),
);

/** Lower-case words in order (letters and digits; an apostrophe inside a word keeps it whole). */
export function words(text: string): string[] {
  return (text.normalize('NFC').toLowerCase().match(WORD) ?? []).map((w) => w.replace(/['’]s$/, ''));
}

/** A light English stemmer: plurals and -ing/-ed endings, enough for "editors" to meet "editor" and "edits" "edit". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (/(x|ch|sh|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The words of a text that carry meaning, stemmed (repeats kept). */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
}

/** The question's words to search for: meaningful, unique, in order. */
export function keywords(text: string, max = 8): string[] {
  return [...new Set(words(text).filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w))))].slice(0, max);
}

// Abbreviations, and single capitals with a stop (initials, "A.D."), do not end a sentence.
const ABBREVIATION = /(\b(e\.g|i\.e|etc|vs|approx|incl|no|mr|mrs|ms|dr|st|fig|cf|al)|(^|[\s.(])\p{Lu})\.$/iu;
const MAX_SENTENCE = 400;

/**
 * A text's sentences. Paragraphs (blank lines) and list items (lines starting with *, - or •) end a
 * sentence; other line breaks are spaces (descriptions wrapped at 72 columns). A sentence ends at . ! or ?
 * followed by a space and a capital, digit or quote, unless the word before the stop is an abbreviation.
 * Very long runs are cut at a word boundary.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\s*\n|\n(?=\s*[*•-]\s)/)) {
    const flat = block
      .replace(/^\s*[*•-]\s+/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!flat) continue;
    let start = 0;
    const stops = /[.!?]+["')\]]?(?=\s+["'\p{Lu}\p{N}])/gu;
    for (const m of flat.matchAll(stops)) {
      const end = m.index! + m[0].length;
      const candidate = flat.slice(start, end).trim();
      if (ABBREVIATION.test(flat.slice(start, m.index! + 1))) continue;
      if (candidate) out.push(...cut(candidate));
      start = end;
    }
    const rest = flat.slice(start).trim();
    if (rest) out.push(...cut(rest));
  }
  return out;
}

function cut(sentence: string): string[] {
  if (sentence.length <= MAX_SENTENCE) return [sentence];
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_SENTENCE) {
    const at = rest.lastIndexOf(' ', MAX_SENTENCE);
    const end = at > MAX_SENTENCE / 2 ? at : MAX_SENTENCE;
    parts.push(`${rest.slice(0, end).trim()}…`);
    rest = rest.slice(end).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
