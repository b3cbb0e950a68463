import type { ApiRouter, JsonSchema } from 'vela/plugin';
import type { SearchDomain } from './route-context.js';

const tags = ['system'];
const count = (description: string): JsonSchema => ({ type: 'integer', description });
const cachesSchema: JsonSchema = {
  type: 'object',
  properties: {
    answers: {
      type: 'object',
      description: 'whole answers of the REST searches, by request (config answerCache.megabytes)',
      properties: {
        entries: count('answers kept'),
        bytes: count('their size, with their keys'),
        maxBytes: count('the limit; 0: the cache is off'),
        hits: count('searches answered from it since the start'),
        misses: count('searches it did not hold since the start'),
      },
    },
    pageDocuments: {
      type: 'object',
      description: 'stored documents of recent result pages (config pageCache.documents)',
      properties: { entries: count('documents kept'), maxEntries: count('the limit; 0: the cache is off') },
    },
  },
};

/**
 * This process's caches of the search, as the original's `/api/system/cache`: what they hold, and a way to
 * empty them (never needed for correctness: both follow every change; for an operator measuring cold searches). One
 * alone can be emptied: a benchmark of searches that are searched, not answered from the answer cache, still
 * reads warm pages like any site in use.
 */
export function mountSystemCacheRoutes(
  router: ApiRouter,
  { answers, docs }: Pick<SearchDomain, 'answers' | 'docs'>,
): void {
  const report = () => ({
    answers: answers.stats(),
    pageDocuments: { entries: docs.pages.size, maxEntries: docs.pages.maxSize },
  });
  const admin = router.withDefaults({ access: 'key', tags });
  admin.item(
    'get',
    '/api/system/cache',
    { summary: "The search's caches in this process", description: 'the caches', schema: cachesSchema },
    report,
  );
  admin.item(
    'post',
    '/api/system/cache/clear',
    {
      summary: "Empty the search's caches in this process",
      query: {
        type: 'object',
        properties: {
          cache: {
            type: 'string',
            enum: ['answers', 'pageDocuments'],
            description: 'empty this cache alone (default: both)',
          },
        },
      },
      description: 'what was removed',
      schema: {
        type: 'object',
        properties: { answers: count('answers removed'), pageDocuments: count('documents removed') },
      },
    },
    (req) => {
      const only = (req.query as { cache?: 'answers' | 'pageDocuments' }).cache;
      const pageDocuments = only === 'answers' ? 0 : docs.pages.size;
      if (only !== 'answers') docs.pages.clear();
      return { answers: only === 'pageDocuments' ? 0 : answers.clear(), pageDocuments };
    },
  );
}
