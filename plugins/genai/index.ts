import type {} from '@vela/plugin-search/api';
import { definePlugin, type PluginContext, SecretBox, StoreRefresh } from 'vela/plugin';
import { AgentStore } from './agents/agent-store.js';
import { ConversationStore } from './agents/conversation-store.js';
import { ActiveChats } from './chat/chat-response.js';
import { GenerationSlots } from './chat/generation-slots.js';
import { ProviderCalls } from './chat/provider-call.js';
import { mountConsolePages } from './console/mount-console.js';
import type { GenaiConfig, GenaiDomain } from './domain.js';
import { EmbeddingService } from './embeddings/embedding-service.js';
import { embeddingsProvider } from './embeddings/embeddings-provider.js';
import { genaiErrors } from './errors.js';
import type { ComposeInput } from './providers/extractive.js';
import { providerFor } from './providers/provider-factory.js';
import { Retriever } from './rag/retriever.js';
import { mountAgentRoutes } from './routes/agents.js';
import { mountDirectChatRoutes } from './routes/direct-chat.js';
import { mountEmbeddingRoutes } from './routes/embeddings.js';
import { mountInstanceRoutes } from './routes/instances.js';
import { mountSiteChatRoutes } from './routes/site-chat.js';
import { mountTokenUsageRoutes } from './routes/token-usage.js';
import { InstanceStore } from './store/instance-store.js';
import { exportSiteSettings, importSiteSettings } from './store/site-settings-exchange.js';
import { SiteSettingsStore, siteExists } from './store/site-settings-store.js';
import { TokenCounter } from './usage/token-counter.js';
import { TokenUsageStore } from './usage/token-usage.js';

/** Build the plugin's objects; constructors do no I/O, so this is fine in register. */
function createDomain(ctx: PluginContext<GenaiConfig, typeof consumes>, secrets: () => SecretBox): GenaiDomain {
  const db = ctx.resolve('db');
  // The built-in provider's text work and token counting run on the worker pool: a long conversation (or the
  // tokenizer's first load, half a second) would otherwise hold up every service of the process.
  const counter = new TokenCounter(ctx.task<string, number>(new URL('./usage/token-count-task.ts', import.meta.url)));
  const compose = ctx.task<ComposeInput, { text: string; cited: number[] }>(
    new URL('./providers/extractive-task.ts', import.meta.url),
  );
  // Writes are announced to the other processes sharing the database, which reload at once; the poll is the safety net.
  const refresh = new StoreRefresh({
    what: 'LLM instances and site settings',
    channels: ['genai.settings'],
    changes: ctx.resolve('changes'),
    pollMs: ctx.config.pollMs,
    logger: ctx.logger,
    reload: async () => {
      await Promise.all([instances.load(), settings.load()]);
    },
  });
  const announce = () => refresh.announce();
  const instances = new InstanceStore(db, secrets, ctx.logger, announce);
  const settings = new SiteSettingsStore(db, ctx.config.siteChat.enabledByDefault, ctx.logger, announce);
  const usage = new TokenUsageStore(db, (id) => instances.find(id)?.title);
  const search = () => ctx.resolve('search.service');
  const outbound = () => ctx.resolve('outbound');
  return {
    config: ctx.config,
    logger: ctx.logger,
    instances,
    settings,
    refresh,
    agents: new AgentStore(db),
    conversations: new ConversationStore(db),
    usage,
    calls: new ProviderCalls(usage, counter, ctx.logger),
    embeddings: new EmbeddingService({ instances, outbound, usage, counter, logger: ctx.logger }),
    slots: new GenerationSlots(),
    active: new ActiveChats(),
    retriever: new Retriever(search),
    sites: () => ctx.resolve('search.sites'),
    search,
    outbound,
    providerFor: (instance) => providerFor(instance, instances, outbound, compose),
    compose,
  };
}

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['db', 'outbound', 'workers', 'changes', 'search.service', 'search.sites', 'search.console'] as const;

export default definePlugin<GenaiConfig, typeof consumes>({
  consumes,
  register(ctx) {
    let secretBox: SecretBox | undefined;
    const secrets = () => {
      if (!secretBox) throw genaiErrors.stopping();
      return secretBox;
    };
    const domain = createDomain(ctx, secrets);
    ctx.provide('genai.embeddings', () => embeddingsProvider(domain.instances, domain.embeddings));
    ctx.routes((router) => {
      mountInstanceRoutes(router, domain);
      mountSiteChatRoutes(router, domain);
      mountDirectChatRoutes(router, domain);
      mountAgentRoutes(router, domain);
      mountTokenUsageRoutes(router, domain);
      mountEmbeddingRoutes(router, domain);
      mountConsolePages(router, ctx.resolve('search.console'));
    });
    ctx.health('llm-instances', () => ({
      status: 'UP',
      details: {
        instances: domain.instances.list().length,
        enabled: domain.instances.list().filter((i) => i.enabled).length,
        activeChats: domain.active.size,
      },
    }));
    // A site's settings travel with its export (member `genai`), its instance by id and title, never its key.
    ctx.hooks.tap('search.siteExport', 'genai', (site) => exportSiteSettings(domain.settings, domain.instances, site));
    ctx.hooks.tapPromise('search.siteImport', 'genai', (site) =>
      importSiteSettings(domain.settings, domain.instances, site),
    );
    // A stop ends the chats in flight at once (a `failed` event, then the end of each stream), so the
    // listeners close without waiting out shutdownTimeoutMs for slow model servers.
    ctx.hooks.tapPromise('runtime.shutdown', 'end-chats', async () => {
      domain.active.abortAll(genaiErrors.stopping());
    });

    return {
      async start() {
        // LLM API keys are sealed with VELA_GENAI_KEY, else VELA_SECRET_KEY (every plugin's), else
        // <data>/genai/secret.key.
        secretBox = await SecretBox.open(ctx.dataDir, process.env, {
          variable: process.env.VELA_GENAI_KEY ? 'VELA_GENAI_KEY' : 'VELA_SECRET_KEY',
        });
        await Promise.all([domain.instances.load(), domain.settings.load()]);
        // Sites deleted while this process was down (or by another one) leave their settings behind.
        const pruned = await domain.settings.prune(siteExists(domain.sites()));
        if (pruned.length > 0) ctx.logger.info({ sites: pruned }, 'dropped the GenAI settings of deleted sites');
        ctx.logger.info({ instances: domain.instances.list().length, keyFrom: secretBox.source }, 'genai ready');
        domain.refresh.start();
      },
      async stop() {
        domain.refresh.stop();
        domain.active.abortAll(genaiErrors.stopping());
        // The usage of the chats just ended, before the worker pool and the database close.
        await domain.calls.settled();
      },
    };
  },
});
