import type { VectorRetriever } from '../api.js';
import type { SearchEngine } from '../engine/search-engine.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteConfig } from '../store/site-types.js';
import { MLT_ROWS, MLT_SOURCES, mltFields, mltText, weightedTerms } from '../suggest/more-like-this.js';
import { stopWordsOf } from '../suggest/stop-words.js';
import type { Attributes } from './indexable.js';
import type { SimilarDocument } from './search-response.js';

/** Where More Like This looks: the site's engine, and its vectors when a retriever has them ready. */
export interface SimilarSources {
  docs: DocumentStore;
  config: SiteConfig;
  engine: SearchEngine;
  locale: string;
  retriever: VectorRetriever | null;
}

/**
 * More Like This: the documents nearest to the page's first results by their vectors, when the site and locale
 * have them ready; else those with the most of the top tf-idf terms of those results (in the fields with `mlt`,
 * else the site's title, description and text fields). Never the page's own results.
 */
export async function similarDocuments(
  sources: SimilarSources,
  stored: Map<string, Attributes>,
  pageIds: string[],
): Promise<SimilarDocument[]> {
  const { docs, config, locale } = sources;
  const { site } = config;
  const ids = (await similarByVectors(sources, pageIds)) ?? (await similarByTerms(sources, stored, pageIds));
  if (ids.length === 0) return [];
  const found = await docs.forPage(site.id, locale, ids);
  return ids.flatMap((id) => {
    const attributes = found.get(id);
    if (!attributes) return [];
    return [
      {
        id,
        title: text(attributes, site.defaultTitleField),
        type: text(attributes, 'type'),
        url: text(attributes, site.defaultURLField),
      },
    ];
  });
}

/** The ids the retriever finds nearest to the page's first results; null when it has no vectors ready (or fails). */
async function similarByVectors(
  { retriever, config, locale }: SimilarSources,
  pageIds: string[],
): Promise<string[] | null> {
  const siteId = config.site.id;
  if (!retriever?.status(siteId, locale).ready) return null;
  try {
    const page = new Set(pageIds);
    // Asked for as many more as the page has, since the page's own results are left out.
    const near = await retriever.similar(siteId, locale, pageIds.slice(0, MLT_SOURCES), MLT_ROWS + pageIds.length);
    return near
      .map((match) => match.id)
      .filter((id) => !page.has(id))
      .slice(0, MLT_ROWS);
  } catch {
    // The terms still say what is alike.
    return null;
  }
}

async function similarByTerms(
  { config, engine, locale }: SimilarSources,
  stored: Map<string, Attributes>,
  pageIds: string[],
): Promise<string[]> {
  const fields = mltFields(config);
  const texts = pageIds
    .slice(0, MLT_SOURCES)
    .flatMap((id) => (stored.has(id) ? [mltText(stored.get(id)!, fields)] : []));
  const terms = weightedTerms(texts, engine.terms, stopWordsOf(locale));
  const hits = await engine.similar(terms, pageIds, MLT_ROWS);
  return hits.map((hit) => hit.id);
}

/** A field's first value as text; null when the document lacks it. */
function text(attributes: Attributes, field: string | null): string | null {
  const value = field === null ? undefined : Object.hasOwn(attributes, field) ? attributes[field] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === null ? null : String(first);
}
