import { type ApiRouter, answers, httpErrors, type Response, VelaError } from 'vela/plugin';
import type { AllRefusedDetails, ImportItem, ImportResult } from '../api.js';
import { importBodySchema, importResultSchema } from '../schemas/import.js';
import type { SearchDomain } from './route-context.js';

const tags = ['indexing'];
const query = {
  type: 'object',
  properties: { wait: { type: 'boolean', default: false, description: 'answer once the batch is searchable' } },
};

/** The body's items, each an object; the importer checks each on its own (search.importer). */
function itemsOf(body: unknown): ImportItem[] {
  const items = (body as { turingDocuments?: unknown } | undefined)?.turingDocuments;
  if (!Array.isArray(items))
    throw httpErrors.invalidParameter(
      'turingDocuments',
      'must be an array of documents: {"turingDocuments": [{"locale", "turSNJobAction", "siteNames", "attributes"}]}',
    );
  if (items.some((item) => !item || typeof item !== 'object' || Array.isArray(item)))
    throw httpErrors.invalidParameter('turingDocuments', 'must hold objects only');
  return items as ImportItem[];
}

function waitOf(query: unknown): boolean {
  const wait = (query as { wait?: unknown }).wait;
  return wait === 'true' || wait === '1' || wait === '';
}

/**
 * The importer's answer; when it refused every item, the 400 carries each item's reasons (`rejected`, as in a
 * 200) besides the message, so a client such as the connector records why each document was refused.
 */
async function answer(res: Response, result: Promise<ImportResult>): Promise<void> {
  try {
    res.json(await result);
  } catch (error) {
    const details =
      error instanceof VelaError && error.status === 400 ? (error.details as AllRefusedDetails | undefined) : undefined;
    if (!details?.rejected) throw error;
    res
      .status(400)
      .json({ error: (error as VelaError).code, message: (error as VelaError).message, rejected: details.rejected });
  }
}

export function mountImportRoutes(router: ApiRouter, { importer }: Pick<SearchDomain, 'importer'>): void {
  // Import and de-index take the same body and answer alike; de-indexing makes every item a DELETE.
  const importRoute = (path: string, summary: string, bodyLimit: string, deleteAll: boolean) =>
    router.post(
      path,
      {
        access: 'key',
        scope: 'import',
        tags,
        summary,
        query,
        body: importBodySchema,
        validate: false,
        bodyLimit,
        responses: answers('what was accepted and rejected', importResultSchema),
      },
      async (req, res) => {
        await answer(res, importer.import(itemsOf(req.body), { wait: waitOf(req.query), deleteAll }));
      },
    );
  importRoute(
    '/api/sn/import',
    'Import documents: {"turingDocuments":[{locale, turSNJobAction, siteNames, attributes}]}',
    '256mb',
    false,
  );
  importRoute(
    '/api/sn/deindex',
    'Remove documents: the same body as import; every item is a DELETE (by id, or by type without id)',
    '64mb',
    true,
  );
}
