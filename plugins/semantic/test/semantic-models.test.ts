import test from 'ava';
import { eventually, startTestRuntime } from 'vela/testing';
import { startFakeEmbeddings } from '../../genai/test/fake-embeddings.js';
import { call, createToolbox, searchIds, toolboxDocuments } from './toolbox.js';

/** The active model of the Toolbox site, and the status. */
async function status(vela: Parameters<typeof call>[0]) {
  const body = (await call(vela, 'GET', '/api/sn/Toolbox/semantic/status')).body;
  return { body, active: body.models.find((m: { active: boolean }) => m.active) };
}

test("a change of embedding model re-embeds the site in the background, searches going on with the old vectors; a vendor's failures are listed with their reason", async (t) => {
  const fake = await startFakeEmbeddings();
  t.teardown(() => fake.stop());
  const vela = await startTestRuntime({
    plugins: ['search', 'genai', 'semantic'],
    config: { runtime: { network: { allowHosts: [fake.host] } }, plugins: { semantic: { pollMs: 50 } } },
  });
  t.teardown(() => vela.stop());
  await createToolbox(vela);
  const documents = toolboxDocuments().length;
  const builtin = (await status(vela)).active.model;
  t.regex(builtin, /^builtin:/);

  const instance = (id: string, embeddingModel: string) =>
    call(vela, 'POST', '/api/llm', {
      id,
      vendor: 'OPENAI_COMPATIBLE',
      url: `${fake.origin}/v1`,
      modelName: 'chat',
      embeddingModel,
    });
  t.is((await instance('emb', 'plain')).status, 201);
  t.is((await call(vela, 'PUT', '/api/sn/Toolbox/semantic', { embedder: 'emb' })).status, 200);
  // Every search while the site is embedded anew runs hybrid: with the old vectors, then with the new.
  await eventually(
    async () => {
      const hybrid = await searchIds(vela, 'Toolbox', 'q=emacs&semantic=hybrid');
      t.is(hybrid.body.queryContext.semantic.mode, 'hybrid', JSON.stringify(hybrid.body.queryContext.semantic));
      const { active } = await status(vela);
      return active?.model === 'instance:emb:plain' && active.done === documents;
    },
    'the site embedded with the instance',
    30_000,
    100,
  );
  // The retired model's states and vectors go in the indexer's next step.
  await eventually(
    async () => (await status(vela)).body.models.map((m: { model: string }) => m.model).join() === 'instance:emb:plain',
    "the built-in model's states and vectors gone once the new model is active",
    10_000,
    50,
  );
  t.true(
    fake.requests.some((r) => r.model === 'plain' && r.texts.length > 1),
    'passages are sent in batches',
  );

  t.is((await instance('bad', 'broken')).status, 201);
  t.is((await call(vela, 'PUT', '/api/sn/Toolbox/semantic', { embedder: 'bad' })).status, 200);
  await eventually(
    async () => (await status(vela)).body.failures.length > 0,
    'the failures of the broken model listed',
    30_000,
    100,
  );
  const broken = await status(vela);
  t.regex(broken.body.failures[0].reason, /503|unavailable|server/i);
  t.is(broken.body.failures[0].model, 'instance:bad:broken');
  t.is(broken.active.model, 'instance:emb:plain', 'the model that works stays active');
  t.is((await searchIds(vela, 'Toolbox', 'q=emacs&semantic=hybrid')).body.queryContext.semantic.mode, 'hybrid');
});
