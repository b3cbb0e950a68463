import { type ApiRouter, principalOf } from 'vela/plugin';
import type { GenaiDomain } from '../domain.js';
import { genaiErrors } from '../errors.js';
import {
  EMBEDDING_INPUT_LIMITS,
  embeddingsBodySchema,
  embeddingsSchema,
  idSchema,
  pathParams,
} from '../schemas/common.js';

/** POST /api/v2/llm/instance/{id}/embeddings: an operator tries an instance's embeddings (admin scope). */
export function mountEmbeddingRoutes(router: ApiRouter, domain: GenaiDomain): void {
  router.post(
    '/api/v2/llm/instance/:id/embeddings',
    {
      access: 'key',
      tags: ['llm instances'],
      summary: "Embed texts with an LLM instance's embeddingModel, to try it",
      description: `At most ${EMBEDDING_INPUT_LIMITS.texts} texts of ${EMBEDDING_INPUT_LIMITS.chars} characters; they are sent in batches of the instance's embeddingBatchSize, retried on 429 and 5xx. 409: the instance offers no embeddings or is disabled; 502: the server failed or answered vectors of another dimension; 504: past the instance's timeoutMs.`,
      params: pathParams({ id: idSchema }),
      body: embeddingsBodySchema,
      responses: { 200: { description: 'one vector per text, in order', schema: embeddingsSchema } },
    },
    async (req, res) => {
      const instance = domain.instances.get(String(req.params.id));
      const { input } = req.body as { input: string[] };
      // The client going away ends the requests to the model server.
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort(genaiErrors.clientGone());
      });
      const username = principalOf(res)?.username ?? 'anonymous';
      res.json(await domain.embeddings.embed(instance, input, { username, signal: controller.signal }));
    },
  );
}
