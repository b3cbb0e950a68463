import type { OutboundGuard } from 'vela/plugin';
import type { InstanceStore, LlmInstance } from '../store/instance-store.js';
import { type Compose, ExtractiveProvider } from './extractive.js';
import { OpenAiCompatibleProvider } from './openai-compatible.js';
import type { ChatProvider } from './provider.js';
import { vendorOf } from './vendors.js';

/**
 * The provider of an instance, by its vendor's kind; the API key is decrypted here, for this one request. The
 * built-in one composes its answers with `compose` (on the worker pool).
 */
export function providerFor(
  instance: LlmInstance,
  instances: InstanceStore,
  outbound: () => OutboundGuard,
  compose: Compose,
): ChatProvider {
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
