import type { SearchEngine } from '../engine/search-engine.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteConfig } from '../store/site-types.js';
import { MLT_ROWS, MLT_SOURCES, mltFields, mltText, weightedTerms } from '../suggest/more-like-this.js';
import { stopWordsOf } from '../suggest/stop-words.js';
import type { Attributes } from './indexable.js';
import type { SimilarDocument } from './search-response.js';

/**
 * More Like This: the documents with the most of the top tf-idf terms of the page's first results (in the
 * fields with `mlt`, else the site's title, description and text fields); never the page's own results.
 */
export async function similarDocuments(
  docs: DocumentStore,
  config: SiteConfig,
  engine: SearchEngine,
  locale: string,
  stored: Map<string, Attributes>,
  pageIds: string[],
): Promise<SimilarDocument[]> {
  const { site } = config;
  const fields = mltFields(config);
  const texts = pageIds
    .slice(0, MLT_SOURCES)
    .flatMap((id) => (stored.has(id) ? [mltText(stored.get(id)!, fields)] : []));
  const terms = weightedTerms(texts, engine.terms, stopWordsOf(locale));
  const hits = await engine.similar(terms, pageIds, MLT_ROWS);
  if (hits.length === 0) return [];
  const found = await docs.forPage(
    site.id,
    locale,
    hits.map((h) => h.id),
  );
  return hits.flatMap((h) => {
    const attributes = found.get(h.id);
    if (!attributes) return [];
    return [
      {
        id: h.id,
        title: text(attributes, site.defaultTitleField),
        type: text(attributes, 'type'),
        url: text(attributes, site.defaultURLField),
      },
    ];
  });
}

/** A field's first value as text; null when the document lacks it. */
function text(attributes: Attributes, field: string | null): string | null {
  const value = field === null ? undefined : Object.hasOwn(attributes, field) ? attributes[field] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === null ? null : String(first);
}
