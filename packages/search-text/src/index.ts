// @vela/search-text: what every search engine derives from text and queries the same way, so that two
// engines given one schema, one document and one query agree on what matches (the search plugin's memory
// engine and the search-postgres plugin's engine both use it).

export {
  type Bm25Params,
  checkBm25,
  classFrequency,
  classScores,
  DEFAULT_BM25,
  type FieldLength,
  inverseDocumentFrequency,
  lengthNormalisation,
  phraseBonus,
  saturate,
  type TextField,
  weightClass,
  weightedFrequencies,
} from './bm25f.js';
export { compareStrings } from './compare-strings.js';
export {
  checkDocument,
  checkPaging,
  checkSchema,
  type EngineDocumentValues,
  type EngineFieldLists,
  type EngineFilterValues,
  type EnginePaging,
  type FilterColumn,
  filterColumn,
  type QueryTerms,
  queryTerms,
} from './engine-input.js';
export { ownValue, setOwn } from './own-property.js';
export { type AnalyzedText, analyze, slotOf, tokenize } from './text-analyzer.js';
