import { eventually, serviceCaller, type TestRuntime } from 'vela/testing';

export const call = serviceCaller('search', (vela) => ({ authorization: vela.adminAuth }));

/**
 * A small site whose words keep company: editors with text and files, archivers with compression, network tools
 * with packets. Seeded, so every run has the same documents. `vim` is the one editor document that never says
 * "emacs": a search by meaning for "emacs" finds it, a keyword search does not.
 */
export function toolboxDocuments(): Array<{ id: string; title: string; text: string; kind: string }> {
  const groups = {
    editor: ['editor', 'text', 'emacs', 'files', 'syntax', 'highlighting', 'modal', 'keyboard', 'buffers', 'lines'],
    archive: ['compression', 'archive', 'gzip', 'bzip2', 'ratio', 'decompress', 'tarball', 'deflate', 'zip', 'bytes'],
    network: [
      'packets',
      'network',
      'capture',
      'tcp',
      'interface',
      'sniffer',
      'protocol',
      'traffic',
      'routing',
      'socket',
    ],
  };
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const docs: Array<{ id: string; title: string; text: string; kind: string }> = [];
  for (const [kind, words] of Object.entries(groups))
    for (let i = 0; i < 14; i++) {
      const picked = Array.from({ length: 12 }, () => words[Math.floor(random() * words.length)]!);
      docs.push({ id: `${kind}-${i}`, title: `${kind} tool ${i}`, text: `A ${picked.join(' ')} tool.`, kind });
    }
  docs.push({
    id: 'vim',
    title: 'vim',
    text: 'A modal editor for text files, with syntax highlighting, buffers and keyboard commands for lines.',
    kind: 'editor',
  });
  return docs;
}

export const TOOLBOX_FIELDS = [
  { name: 'title', type: 'TEXT' },
  { name: 'text', type: 'TEXT' },
  { name: 'kind', type: 'STRING', facet: true, facetName: 'Kinds' },
];

/** The body of POST /api/sn that makes the Toolbox site. */
export const toolboxSite = (name = 'Toolbox') => ({
  name,
  locales: ['en_US'],
  fields: TOOLBOX_FIELDS,
  defaultTitleField: 'title',
  defaultTextField: 'text',
});

/** The body of POST /api/sn/import that brings the Toolbox documents. */
export const toolboxImport = (name = 'Toolbox') => ({
  turingDocuments: toolboxDocuments().map((attributes) => ({ locale: 'en_US', siteNames: [name], attributes })),
});

/** The Toolbox site with semantic search on, every document embedded when this resolves. */
export async function createToolbox(vela: TestRuntime, name = 'Toolbox'): Promise<void> {
  const site = await call(vela, 'POST', '/api/sn', toolboxSite(name));
  if (site.status !== 201) throw new Error(`site: ${site.status} ${JSON.stringify(site.body)}`);
  const on = await call(vela, 'PUT', `/api/sn/${name}/semantic`, { enabled: true });
  if (on.status !== 200) throw new Error(`semantic: ${on.status} ${JSON.stringify(on.body)}`);
  const docs = toolboxDocuments();
  const imported = await call(vela, 'POST', '/api/sn/import?wait=true', toolboxImport(name));
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.body)}`);
  await embedded(vela, name, docs.length);
}

/** Resolves once the site's active model has `documents` documents done and hybrid search runs. */
export async function embedded(vela: TestRuntime, name: string, documents: number): Promise<void> {
  await eventually(
    async () => {
      const status = (await call(vela, 'GET', `/api/sn/${name}/semantic/status`)).body;
      const active = status.models?.find((m: { active: boolean }) => m.active);
      return status.locales?.[0]?.ready === true && active?.done === documents && active.pending === 0;
    },
    `${documents} documents of ${name} embedded`,
    30_000,
    100,
  );
}

/** The ids of a search's results, in order. */
export async function searchIds(vela: TestRuntime, site: string, query: string): Promise<{ ids: string[]; body: any }> {
  const answer = await call(vela, 'GET', `/api/sn/${site}/search?${query}`);
  if (answer.status !== 200) throw new Error(`search: ${answer.status} ${JSON.stringify(answer.body)}`);
  const ids = (answer.body.results?.document ?? []).map((d: { fields: { id: string } }) => d.fields.id);
  return { ids, body: answer.body };
}
