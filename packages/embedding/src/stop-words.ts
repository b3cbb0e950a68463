/**
 * English function words, left out of the vocabulary: they occur beside every word, so they would tie all
 * words together instead of telling them apart. Lucene's 33 default words (the keyword index's English stop
 * words) plus the pronouns, auxiliaries, prepositions and determiners frequent in product and help text.
 */
const ENGLISH =
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with ' +
  'about above after again all also am any because been before being below between both can could did do does doing down during each ' +
  'few from further had has have having he her here hers herself him himself his how i its itself just me more most my myself nor now ' +
  'off once only other our ours ourselves out over own same she should so some than them themselves those through too under until up ' +
  'very we were what when where which while who whom why would you your yours yourself yourselves may might must shall us via etc ' +
  'e g ie eg s t';

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH.split(' '));
