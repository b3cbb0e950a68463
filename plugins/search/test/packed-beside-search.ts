import type { ChildRuntime } from 'vela/testing';

// Calls to a child runtime in which a packed plugin runs beside the search plugin's folder.

/** The child runtime's administrator (childEnv's password). */
export const ADMIN_AUTH = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

/** A POST with a JSON body to the search service, as its administrator unless `headers` say otherwise. */
export function searchPost(
  vela: ChildRuntime,
  url: string,
  body: unknown,
  headers: Record<string, string> = { authorization: ADMIN_AUTH },
): Promise<Response> {
  return fetch(`${vela.urls.search}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The site `Packed` (one TEXT field, title) with a document `<word> note` for each word: the statuses of the two writes. */
export async function packedSite(vela: ChildRuntime, words: string[]): Promise<number[]> {
  const site = await searchPost(vela, '/api/sn', {
    name: 'Packed',
    locales: ['en_US'],
    fields: [{ name: 'title', type: 'TEXT' }],
  });
  const documents = words.map((word, i) => ({
    locale: 'en_US',
    siteNames: ['Packed'],
    attributes: { id: `d${i}`, title: `${word} note` },
  }));
  const imported = await searchPost(vela, '/api/sn/import?wait=true', { turingDocuments: documents });
  return [site.status, imported.status];
}
