import type { SearchSites, SiteSearch } from '@vela/plugin-search/api';
import type { Logger, OutboundGuard, StoreRefresh } from 'vela/plugin';
import type { AgentStore } from './agents/agent-store.js';
import type { ConversationStore } from './agents/conversation-store.js';
import type { ActiveChats } from './chat/chat-response.js';
import type { GenerationSlots } from './chat/generation-slots.js';
import type { ProviderCalls } from './chat/provider-call.js';
import type { EmbeddingService } from './embeddings/embedding-service.js';
import type { Compose } from './providers/extractive.js';
import type { ChatProvider } from './providers/provider.js';
import type { Retriever } from './rag/retriever.js';
import type { InstanceStore, LlmInstance } from './store/instance-store.js';
import type { SiteSettingsStore } from './store/site-settings-store.js';
import type { TokenUsageStore } from './usage/token-usage.js';

export interface GenaiConfig {
  heartbeatMs: number;
  pollMs: number;
  siteChat: { enabledByDefault: boolean; documents: number; passages: number; passageChars: number };
  directChat: { defaultInstance: string; anonymousMaxChars: number; maxChars: number };
  agents: { historyMessages: number };
}

/** The plugin's objects, built once in register (no I/O) and shared by its routes and lifecycle. */
export interface GenaiDomain {
  config: GenaiConfig;
  logger: Logger;
  instances: InstanceStore;
  settings: SiteSettingsStore;
  /** Keeps instances and settings in step with the other processes' writes (started and stopped with the plugin). */
  refresh: StoreRefresh;
  agents: AgentStore;
  conversations: ConversationStore;
  usage: TokenUsageStore;
  calls: ProviderCalls;
  /** The embeddings instances offer. */
  embeddings: EmbeddingService;
  slots: GenerationSlots;
  active: ActiveChats;
  retriever: Retriever;
  /** The search plugin's services (resolved on first use: they exist once the search plugin has registered). */
  sites: () => SearchSites;
  search: () => SiteSearch;
  outbound: () => OutboundGuard;
  providerFor(instance: LlmInstance): ChatProvider;
  /** The built-in provider's answer, composed on the worker pool. */
  compose: Compose;
}
