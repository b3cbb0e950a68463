import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, makeDocs } from '../../search/test/fixtures.js';

/** A runtime with the search and graphql plugins (`graphql`: the plugin's settings) and the site Sample. */
export async function startGraphql(graphql: Record<string, unknown>): Promise<TestRuntime> {
  const vela = await startTestRuntime({ plugins: ['search', 'graphql'], config: { plugins: { graphql } } });
  await createSite(vela);
  return vela;
}

/** The same, with `count` of the search tests' sample documents imported. */
export async function startGraphqlWithDocs(graphql: Record<string, unknown>, count: number): Promise<TestRuntime> {
  const vela = await startGraphql(graphql);
  await importDocs(vela, makeDocs(count));
  return vela;
}
