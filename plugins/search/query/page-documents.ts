import type { EngineHit } from '../engine/search-engine.js';
import type { SpotlightWidgetItem } from '../spotlights/spotlight-store.js';
import type { DocumentStore } from '../store/document-store.js';
import type { SiteConfig } from '../store/site-types.js';
import type { Attributes } from './indexable.js';
import type { SearchPlan } from './plan.js';
import { type DocumentOptions, toResultDocument } from './result-documents.js';
import type { SearchRun } from './run.js';
import type { ResultDocument } from './search-response.js';

/** A page of results: its documents, what was read for them, and the ids of the indexed ones (for More Like This). */
export interface PageDocuments {
  document: ResultDocument[];
  stored: Map<string, Attributes>;
  pageIds: string[];
}

/** The results the stored documents still hold (one deleted since the engine found it is left out). */
export function resultDocuments(
  stored: Map<string, Attributes>,
  hits: readonly EngineHit[],
  config: SiteConfig,
  options: DocumentOptions,
): ResultDocument[] {
  return hits.filter((h) => stored.has(h.id)).map((h) => toResultDocument(stored.get(h.id)!, config, options));
}

/**
 * The page: organic hits, with the spotlight documents in their slots when injecting (`injected`: the slots
 * the results reach). The documents of both are read in one go.
 */
export async function pageDocuments(
  plan: SearchPlan,
  run: SearchRun,
  injected: readonly number[],
  docs: DocumentStore,
  options: DocumentOptions,
): Promise<PageDocuments> {
  const { firstSlot, rows, config } = plan;
  const { items, slots } = run.spotlights;
  const before = injected.filter((slot) => slot < firstSlot).length;
  const within = injected.filter((slot) => slot >= firstSlot && slot < firstSlot + rows);
  const from = firstSlot - 1 - before - run.query.offset;
  const organic = run.found.hits.slice(Math.max(0, from), Math.max(0, from + rows - within.length));
  const spotlightDocs = within.map((slot) => items[slots.indexOf(slot)]!);
  const references = spotlightDocs.flatMap((d) => (d.referenceId ? [d.referenceId] : []));
  const stored = await docs.forPage(config.site.id, plan.locale, [
    ...new Set([...organic.map((h) => h.id), ...references]),
  ]);
  const organicDocs = resultDocuments(stored, organic, config, options);
  const organicIds = organic.filter((h) => stored.has(h.id)).map((h) => h.id);
  const document: ResultDocument[] = [];
  const pageIds: string[] = [];
  for (let slot = firstSlot, next = 0; slot < firstSlot + rows; slot++) {
    const at = within.indexOf(slot);
    if (at >= 0) {
      document.push(spotlightDocument(spotlightDocs[at]!, stored, config, options));
      if (spotlightDocs[at]!.referenceId) pageIds.push(spotlightDocs[at]!.referenceId!);
    } else if (next < organicDocs.length) {
      pageIds.push(organicIds[next]!);
      document.push(organicDocs[next++]!);
    } else break;
  }
  return { document, stored, pageIds };
}

/**
 * A spotlight document in its slot: the indexed document it names, else one made of its own title, content and link.
 */
function spotlightDocument(
  item: SpotlightWidgetItem,
  stored: Map<string, Attributes>,
  config: SiteConfig,
  options: DocumentOptions,
): ResultDocument {
  const referenced = item.referenceId ? stored.get(item.referenceId) : undefined;
  if (referenced) return { ...toResultDocument(referenced, config, options), elevate: true };
  const { site } = config;
  const { fieldList } = options;
  const fields: Record<string, unknown> = { id: item.id };
  if (site.defaultTitleField) fields[site.defaultTitleField] = item.title;
  fields[site.defaultDescriptionField ?? 'abstract'] = item.content;
  fields.type = item.type;
  if (site.defaultURLField && item.link) fields[site.defaultURLField] = item.link;
  const shown = fieldList
    ? Object.fromEntries(Object.entries(fields).filter(([name]) => fieldList.includes(name)))
    : fields;
  return { source: item.link, elevate: true, fields: shown, metadata: [] };
}
