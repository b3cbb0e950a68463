import type { OutboundGuard } from 'vela/plugin';
import { genaiErrors } from '../errors.js';
import type { InstanceStore, LlmInstance } from '../store/instance-store.js';
import { type Compose, ExtractiveProvider } from './extractive.js';
import { OpenAiCompatibleProvider } from './openai-compatible.js';
import type { ChatProvider } from './provider.js';
import { vendorOf } from './vendors.js';

/** Refuses (400) a chat on an instance whose vendor offers embeddings only, before any answer has started. */
export function refuseChatless(instance: LlmInstance): void {
  if (vendorOf(instance.vendor)?.kind === 'embeddings-only')
    throw genaiErrors.chatUnsupported(instance.id, instance.vendor);
}

/**
 * The provider of an instance, by its vendor's kind; the API key is decrypted here, for this one request. The
 * built-in one composes its answers with `compose` (on the worker pool). An embeddings-only instance is refused (400).
 */
export function providerFor(
  instance: LlmInstance,
  instances: InstanceStore,
  outbound: () => OutboundGuard,
  compose: Compose,
): ChatProvider {
  refuseChatless(instance);
  if (vendorOf(instance.vendor)?.kind !== 'openai-compatible') return new ExtractiveProvider({}, compose);
  return new OpenAiCompatibleProvider({
    url: instance.url ?? '',
    model: instance.modelName ?? '',
    apiKey: instances.apiKeyOf(instance.id),
    temperature: instance.temperature,
    topP: instance.topP,
    maxTokens: instance.maxTokens,
    fetch: (url, init) => outbound().fetch(url, init),
  });
}
