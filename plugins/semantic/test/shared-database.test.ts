import test from 'ava';
import { type ChildRuntime, callChild, eventually, sharedDatabaseTest } from 'vela/testing';
import { toolboxDocuments, toolboxImport, toolboxSite } from './toolbox.js';

const search = (vela: ChildRuntime, method: string, path: string, body?: unknown) =>
  callChild(vela, 'search', method, path, body);

/** The ids the vector search of `vela` answers for "emacs". */
async function nearest(vela: ChildRuntime): Promise<{ mode: string; ids: string[] }> {
  const answer = await search(vela, 'GET', '/api/sn/Toolbox/search?q=emacs&semantic=vector&rows=50');
  return {
    mode: answer.body.queryContext?.semantic?.mode,
    ids: (answer.body.results?.document ?? []).map((d: { fields: { id: string } }) => d.fields.id),
  };
}

sharedDatabaseTest(
  test,
  'two processes on one database embed each document once between them, and each searches every vector either made',
  { config: { runtime: { plugins: ['search', 'semantic'] }, plugins: { semantic: { pollMs: 100, batchSize: 4 } } } },
  async (t, a, b) => {
    t.is((await search(a, 'POST', '/api/sn', toolboxSite())).status, 201);
    t.is((await search(a, 'PUT', '/api/sn/Toolbox/semantic', { enabled: true })).status, 200);
    const docs = toolboxDocuments();
    const imported = await search(b, 'POST', '/api/sn/import?wait=true', toolboxImport());
    t.is(imported.status, 200);
    await eventually(
      async () => {
        const status = (await search(b, 'GET', '/api/sn/Toolbox/semantic/status')).body;
        return status.models?.length === 1 && status.models[0].done === docs.length;
      },
      'every document embedded once',
      60_000,
      200,
    );
    // Both processes answer by meaning from the same vectors, whichever process embedded them.
    for (const vela of [a, b])
      await eventually(
        async () => {
          const { mode, ids } = await nearest(vela);
          return mode === 'vector' && ids.length === docs.length && ids.includes('vim');
        },
        'each process searches every vector',
        30_000,
        200,
      );
    const [fromA, fromB] = [await nearest(a), await nearest(b)];
    t.deepEqual(fromA.ids, fromB.ids, 'the same order in both processes');
  },
);
