import test from 'ava';
import fc from 'fast-check';
import { highlighter, queryTerms } from '../query/highlight.js';

const mark = (terms: string[], prefix = false) => highlighter(terms, '<b>', '</b>', prefix)!;

test('whole words are wrapped whatever their case; parts of words are not', (t) => {
  const hl = mark(queryTerms('Perl module'));
  t.is(
    hl('Perl Module for perl-modules, PERL and superperl'),
    '<b>Perl</b> <b>Module</b> for <b>perl</b>-modules, <b>PERL</b> and superperl',
  );
});

test('the last term matches as a prefix only when the search used it as one (3+ characters)', (t) => {
  t.is(mark(['perl', 'mod'], true)('perl modules and a model'), '<b>perl</b> <b>modules</b> and a <b>model</b>');
  t.is(mark(['perl', 'mod'], false)('perl modules and a model'), '<b>perl</b> modules and a model');
  t.is(mark(['perl', 'mo'], true)('perl modules'), '<b>perl</b> modules');
});

test('letters and digits of any script make words; a text without a term comes back as the same string', (t) => {
  t.is(mark(['café', 'x11'])('Le Café, x11-apps et CAFÉS'), 'Le <b>Café</b>, <b>x11</b>-apps et CAFÉS');
  const text = 'nothing to see here';
  t.is(mark(['perl'])(text), text);
  t.is(highlighter([], '<b>', '</b>'), null);
  t.deepEqual(queryTerms('*'), []);
  t.deepEqual(queryTerms('Perl perl, MODULE'), ['perl', 'module']);
});

test('words with combining marks are wrapped whole, as the engine matched them (Hindi, decomposed accents)', (t) => {
  t.deepEqual(queryTerms('हिन्दी भाषा'), ['हिन्दी', 'भाषा']);
  t.is(mark(queryTerms('हिन्दी'))('हिन्दी और हिन्दू'), '<b>हिन्दी</b> और हिन्दू');
  const decomposed = 'Cafe\u0301 noir';
  t.is(mark(queryTerms('café'))(decomposed), '<b>Cafe\u0301</b> noir', 'the stored text is kept as written');
});

/** The plain definition: every word of the text, lower-cased in NFC, compared with the terms. */
function wordByWord(terms: string[], prefixLastTerm: boolean) {
  const last = terms[terms.length - 1]!;
  const prefix = prefixLastTerm && last.length >= 3 ? last : null;
  return (text: string) =>
    text.replace(/[\p{L}\p{M}\p{N}]+/gu, (word) => {
      const key = word.normalize('NFC').toLowerCase();
      return terms.includes(key) || (prefix !== null && key.startsWith(prefix)) ? `<b>${word}</b>` : word;
    });
}

test('the indexOf search wraps exactly the words a word-by-word comparison wraps', (t) => {
  const pieces = [
    'perl',
    'Perl',
    'PERLS',
    'per',
    'superperl',
    'mod',
    'modules',
    ' ',
    '-',
    ', ',
    'é',
    'É',
    'e\u0301',
    'İ',
    '𝒳',
    '日本',
    '\u00df',
    '1',
    'x11',
  ];
  const word = fc.constantFrom('perl', 'mod', 'per', 'é', 'x11', 'modules');
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...pieces), { maxLength: 30 }),
      fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
      fc.boolean(),
      (parts, terms, prefix) => {
        const text = parts.join('');
        const expected = wordByWord(terms, prefix)(text);
        const got = mark(terms, prefix)(text);
        t.is(got, expected === text ? text : expected, JSON.stringify({ text, terms, prefix }));
        return got === expected;
      },
    ),
    { numRuns: 2000 },
  );
});
