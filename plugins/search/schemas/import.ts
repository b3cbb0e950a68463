import { type JsonSchema, recordSchema } from 'vela/plugin';

/**
 * The original's job-item batch. It documents the route; items are checked one by one in code
 * (import-items.ts), which also keeps a 60,000-item batch from paying for a schema walk.
 */
export const importBodySchema: JsonSchema = {
  type: 'object',
  required: ['turingDocuments'],
  properties: {
    turingDocuments: {
      type: 'array',
      maxItems: 200000,
      items: {
        type: 'object',
        properties: {
          locale: {
            type: 'string',
            maxLength: 6,
            pattern: '^[a-zA-Z]{2,3}[-_][a-zA-Z]{2}$',
            description: 'xx_XX (xx-XX is taken too)',
          },
          turSNJobAction: { type: 'string', description: 'CREATE (default), DELETE or COMMIT' },
          siteNames: { type: 'array', items: { type: 'string', maxLength: 100, description: 'a site name or id' } },
          attributes: { type: 'object', description: 'document attributes; id is required to create' },
          specs: { type: 'array', items: { type: 'object' }, description: 'fields to create when the site lacks them' },
        },
      },
    },
  },
};

export const importResultSchema = recordSchema({
  accepted: { type: 'integer', description: 'items stored for indexing' },
  rejected: {
    type: 'array',
    items: recordSchema({ index: 'integer', id: 'string?', site: 'string?', reason: 'string' }),
  },
  commits: 'integer',
  seq: { type: 'integer', description: 'change sequence number of the batch; monitoring shows when it is indexed' },
  indexed: { type: 'boolean', description: 'true when ?wait=true and the batch is searchable' },
});
