import { bodySchema } from 'vela/plugin';
import { MAX_PATHS, MAX_URL } from './common.js';

export const EVENTS = ['INDEXING', 'DEINDEXING', 'PUBLISHING', 'UNPUBLISHING'] as const;
export const ATTRIBUTES = ['ID', 'URL'] as const;
/** What a member left out, or sent as null (as the original's clients do), stands for. */
export const PATH_LIST_DEFAULTS = { event: 'INDEXING', recursive: false, attribute: 'ID' } as const;

/**
 * Body of POST /api/v2/cms/index/{source}. What each path must look like depends on `attribute` (a content
 * path for ID, a delivery URL for URL), checked by the route with messages naming `body.paths[i]`.
 */
export const pathListSchema = bodySchema(['paths'], {
  paths: {
    type: 'array',
    maxItems: MAX_PATHS,
    items: { type: 'string', minLength: 1, maxLength: MAX_URL },
    description: 'content paths (attribute ID) or delivery URLs (attribute URL); an empty list does nothing',
  },
  event: {
    enum: [...EVENTS, null],
    default: PATH_LIST_DEFAULTS.event,
    description:
      'INDEXING: into the author site; PUBLISHING: into the publish site; DEINDEXING: out of both; UNPUBLISHING: out of the publish site (null: INDEXING)',
  },
  recursive: {
    type: ['boolean', 'null'],
    default: PATH_LIST_DEFAULTS.recursive,
    description: 'the pages and assets below each path too (null: false)',
  },
  attribute: {
    enum: [...ATTRIBUTES, null],
    default: PATH_LIST_DEFAULTS.attribute,
    description: 'ID: paths are content paths; URL: paths are delivery URLs (null: ID)',
  },
});
