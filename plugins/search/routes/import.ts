import type { ApiRouter } from '../../../runtime/index.js';
import { searchErrors } from '../errors.js';
import { checkImportItems, specToField, type ImportItem } from '../indexing/import-items.js';
import { importBodySchema, importResultSchema } from '../schemas/import.js';
import type { SearchDomain } from './route-context.js';

const tags = ['indexing'];
const query = { type: 'object', properties: { wait: { type: 'boolean', default: false, description: 'answer once the batch is searchable' } } };

/**
 * Store a batch durably (documents and change log in one transaction), answer, and let the indexer
 * apply it in order. Each bad item is rejected with its reason; the others go on.
 */
function itemsOf(body: unknown): ImportItem[] {
  const items = (body as { turingDocuments?: unknown } | undefined)?.turingDocuments;
  if (!Array.isArray(items)) throw searchErrors.invalidParameter('turingDocuments', 'must be an array of documents: {"turingDocuments": [{"locale", "turSNJobAction", "siteNames", "attributes"}]}');
  if (items.some((item) => !item || typeof item !== 'object' || Array.isArray(item))) throw searchErrors.invalidParameter('turingDocuments', 'must hold objects only');
  return items as ImportItem[];
}

function waitOf(query: unknown): boolean {
  const wait = (query as { wait?: unknown }).wait;
  return wait === 'true' || wait === '1' || wait === '';
}

async function importBatch(domain: SearchDomain, items: ImportItem[], wait: boolean, forceDelete: boolean) {
  const batch = checkImportItems(items, domain.sites, forceDelete ? 'DELETE' : undefined);
  if (batch.accepted === 0 && batch.rejected.length > 0) {
    const reasons = batch.rejected.slice(0, 5).map((r) => `#${r.index}${r.id ? ` (${r.id})` : ''}: ${r.reason}`).join('; ');
    throw searchErrors.invalidParameter('turingDocuments', `were all rejected: ${reasons}${batch.rejected.length > 5 ? `; and ${batch.rejected.length - 5} more` : ''}`);
  }
  const specProblems: string[] = [];
  for (const [siteId, specs] of batch.specs) specProblems.push(...(await domain.sites.ensureFields(siteId, specs.map(specToField))));
  const seq = await domain.docs.write(batch.changes);
  domain.indexes.kick();
  if (wait && seq > 0) await domain.indexes.waitFor(seq);
  return { accepted: batch.accepted, rejected: batch.rejected, commits: batch.commits, seq, indexed: wait, ...(specProblems.length > 0 ? { ignoredSpecs: specProblems } : {}) };
}

export function mountImportRoutes(router: ApiRouter, domain: SearchDomain): void {
  router.post('/api/sn/import', {
    tags, summary: 'Import documents: {"turingDocuments":[{locale, turSNJobAction, siteNames, attributes}]}',
    query, body: importBodySchema, validate: false, bodyLimit: '256mb', responses: { 200: { description: 'what was accepted and rejected', schema: importResultSchema } },
  }, async (req, res) => {
    res.json(await importBatch(domain, itemsOf(req.body), waitOf(req.query), false));
  });

  router.post('/api/sn/deindex', {
    tags, summary: 'Remove documents: the same body as import; every item is a DELETE (by id, or by type without id)',
    query, body: importBodySchema, validate: false, bodyLimit: '64mb', responses: { 200: { description: 'what was accepted and rejected', schema: importResultSchema } },
  }, async (req, res) => {
    res.json(await importBatch(domain, itemsOf(req.body), waitOf(req.query), true));
  });
}
