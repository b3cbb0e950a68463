import test from 'ava';
import { browserSuite, startTestRuntime } from 'vela/testing';
import { type FakeEmbeddings, startFakeEmbeddings } from '../../genai/test/fake-embeddings.js';
import { searchConsolePage } from '../../search/test/console-page.js';
import { call, createToolbox } from './toolbox.js';

// The Semantic tab with the genai plugin loaded: the LLM instances that offer embeddings are embedders to choose,
// and the documents an instance fails to embed are listed with the reason.

let siteId: string;
let fake: FakeEmbeddings;

const ui = browserSuite(test, async () => {
  fake = await startFakeEmbeddings();
  const vela = await startTestRuntime({
    plugins: ['search', 'genai', 'semantic'],
    config: {
      runtime: { network: { allowHosts: [fake.host] } },
      plugins: { semantic: { pollMs: 50 } },
    },
  });
  await createToolbox(vela);
  siteId = (await call(vela, 'GET', '/api/sn/Toolbox')).body.id;
  const instance = async (id: string, title: string, embeddingModel: string | null) => {
    const made = await call(vela, 'POST', '/api/llm', {
      id,
      title,
      vendor: 'OPENAI_COMPATIBLE',
      url: `${fake.origin}/v1`,
      modelName: 'chat',
      embeddingModel,
      apiKey: 'sk-embed-abcdefghijklmnop9876',
    });
    if (made.status !== 201) throw new Error(`instance: ${made.status} ${JSON.stringify(made.body)}`);
  };
  await instance('overloaded', 'Overloaded <server>', 'broken');
  await instance('chat-only', 'Chat only', null);
  return vela;
});
test.after.always(() => fake?.stop());

const { url, text, signIn } = searchConsolePage(ui);

ui.test(
  'an LLM instance with an embedding model is an embedder to choose; what it fails to embed is listed',
  async (t) => {
    const { page, vela } = ui;
    await signIn();
    await page.goto(url(`/console/sites/${siteId}/semantic`));
    await page.waitForSelector('body[data-loaded="true"]');
    const options = await page
      .locator('#embedder option')
      .evaluateAll((nodes) => nodes.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    t.deepEqual(
      options,
      [
        ['builtin', 'Built-in (learned from the site)'],
        ['overloaded', 'Overloaded <server> (broken)'],
      ],
      'instances without an embedding model are not offered; titles are text',
    );

    await page.selectOption('#embedder', 'overloaded');
    await page.click('#save');
    await page.locator('#saved:not([hidden])').waitFor();
    t.is((await call(vela, 'GET', '/api/sn/Toolbox/semantic')).body.embedder, 'overloaded');

    const failure = page.locator('#failures tbody tr').first();
    await failure.waitFor({ timeout: 30_000 });
    t.truthy(await failure.getAttribute('data-document-id'));
    t.regex((await failure.locator('td[data-label="Reason"]').textContent()) ?? '', /\S/, 'with the reason');
    t.regex(await text('#failures-status'), /^\d+ failures?$/);
    const failed = page.locator('#models tbody tr[data-active="false"] td[data-label="Failed"]');
    t.true(Number(await failed.first().textContent()) > 0, "the instance's model counts its failures");
    t.deepEqual(ui.pageErrors, []);
  },
);
