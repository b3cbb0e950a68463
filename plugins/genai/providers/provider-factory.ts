import type { OutboundGuard } from 'vela/plugin';
import type { InstanceStore, LlmInstance } from '../store/instance-store.js';
import { ExtractiveProvider } from './extractive.js';
import { OpenAiCompatibleProvider } from './openai-compatible.js';
import type { ChatProvider } from './provider.js';
import { vendorOf } from './vendors.js';

/** The provider of an instance, by its vendor's kind; the API key is decrypted here, for this one request. */
export function providerFor(instance: LlmInstance, instances: InstanceStore, outbound: () => OutboundGuard): ChatProvider {
  if (vendorOf(instance.vendor)?.kind !== 'openai-compatible') return new ExtractiveProvider();
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
