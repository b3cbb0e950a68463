import type { TestRuntime } from 'vela/testing';
import { json } from '../../search/test/fixtures.js';

/** A search of `site` in en_US, without credentials (searches are public), recorded under `userId` when given. */
export const searchAs = (vela: TestRuntime, site: string, query: string, userId?: string) =>
  json(
    vela,
    'POST',
    `/api/sn/${site}/search?_setlocale=en_US`,
    { query, ...(userId ? { userId } : {}) },
    { authorization: '' },
  );
