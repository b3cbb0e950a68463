import path from 'node:path';
import * as tar from 'tar';
import {
  type ChildRuntime,
  childEnv,
  packageRoot,
  packedHome,
  startChildRuntime,
  type TestTeardown,
} from 'vela/testing';

// A plugin mounted on the search service, as a user deploys it: packed with `vela pack` and loaded from its
// archive in another process, beside the search plugin's folder.

/** The child runtime's administrator (childEnv's password). */
export const ADMIN_AUTH = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

export interface PackedBesideSearch {
  vela: ChildRuntime;
  /** The archive `vela pack` wrote, and the paths inside it (`package/...`). */
  archive: string;
  entries: string[];
  /** How many plugins the runtime's boot tree says it loaded from an archive. */
  fromArchives: number;
}

/** `plugin` packed and started from its archive with the search plugin's folder; stopped when the test ends. */
export async function startPackedBesideSearch(t: TestTeardown, plugin: string): Promise<PackedBesideSearch> {
  const { home, archive } = await packedHome(t, plugin);
  const vela = await startChildRuntime(
    ['--loader-path', `${path.join(packageRoot, 'plugins', 'search')},${archive}`],
    childEnv({ VELA_DATA_DIR: path.join(home, 'data') }),
    home,
  );
  t.teardown(async () => {
    await vela.stop();
  });
  return { vela, archive, entries: await archiveEntries(archive), fromArchives: archiveOrigins(vela) };
}

/** The paths inside an archive (`package/...`). */
async function archiveEntries(archive: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  return entries;
}

/** How many plugins the runtime's boot tree says it loaded from an archive. */
export function archiveOrigins(vela: ChildRuntime): number {
  const boot = vela
    .output()
    .split('\n')
    .find((line) => line.includes('"bootTree"'));
  return (boot?.match(/"origin":"archive"/g) ?? []).length;
}

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
