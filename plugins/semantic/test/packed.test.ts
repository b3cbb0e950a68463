import test from 'ava';
import { callChild, eventually, packedProblems, startPacked } from 'vela/testing';
import { toolboxDocuments, toolboxImport, toolboxSite } from './toolbox.js';

// The semantic plugin as a user deploys it: packed with `vela pack` (the built-in embedder's package inside the
// archive; usearch's native build is the host's) and loaded from the archive in another process, beside the search
// plugin's folder. Its worker-pool tasks (learning and embedding) run from the unpacked archive.

test('the packed semantic plugin loads from its archive, learns its model on the pool and answers by meaning', async (t) => {
  t.timeout(180_000);
  const packed = await startPacked(t, 'semantic', ['search'], { plugins: { semantic: { pollMs: 100 } } });
  const { vela } = packed;
  t.deepEqual(packedProblems(packed, ['semantic', 'search']), []);
  t.true(
    packed.entries.some((entry) => entry.includes('node_modules/@vela/embedding/')),
    'the built-in embedder travels in the archive',
  );
  const search = (method: string, path: string, body?: unknown) => callChild(vela, 'search', method, path, body);
  t.is((await search('POST', '/api/sn', toolboxSite())).status, 201);
  t.is((await search('PUT', '/api/sn/Toolbox/semantic', { enabled: true })).status, 200);
  const docs = toolboxDocuments();
  t.is((await search('POST', '/api/sn/import?wait=true', toolboxImport())).status, 200);
  await eventually(
    async () => {
      const status = (await search('GET', '/api/sn/Toolbox/semantic/status')).body;
      return status.locales?.[0]?.ready === true && status.models?.[0]?.done === docs.length;
    },
    'the site embedded',
    60_000,
    200,
  );
  const answer = await search('GET', '/api/sn/Toolbox/search?q=emacs&semantic=vector&rows=50');
  t.is(answer.body.queryContext.semantic.mode, 'vector');
  t.true(answer.body.results.document.some((d: { fields: { id: string } }) => d.fields.id === 'vim'));
});
