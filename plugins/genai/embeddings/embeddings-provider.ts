import type { EmbeddingInstance, GenaiEmbeddings } from '../api.js';
import { vendorOf } from '../providers/vendors.js';
import type { InstanceStore, LlmInstance } from '../store/instance-store.js';
import type { EmbeddingService } from './embedding-service.js';

/** Whether an instance computes embeddings: an embeddingModel, and a vendor with an embeddings protocol. */
export const offersEmbeddings = (instance: LlmInstance): boolean =>
  !!instance.embeddingModel && !!instance.url && !!vendorOf(instance.vendor)?.embeddings;

/**
 * The `genai.embeddings` service: other plugins (semantic search) embed texts with an LLM instance's embedding
 * model, through the same batching, retries, dimension check and usage records as the operators' route.
 */
export function embeddingsProvider(instances: InstanceStore, service: EmbeddingService): GenaiEmbeddings {
  return {
    instances(): EmbeddingInstance[] {
      return instances
        .list()
        .filter(offersEmbeddings)
        .map((i) => ({
          id: i.id,
          title: i.title,
          vendor: i.vendor,
          model: i.embeddingModel ?? '',
          enabled: i.enabled,
        }));
    },
    async embed(instanceId, texts, options) {
      const { model, dimensions, vectors } = await service.embed(instances.get(instanceId), texts, options);
      return { model, dimensions, vectors };
    },
  };
}
