import type { SearchSite } from '@vela/plugin-search/api';
import type { ChatInstanceRef } from '../api.js';
import type { GenaiDomain } from '../domain.js';
import type { Passage } from '../providers/provider.js';
import { vendorOf } from '../providers/vendors.js';
import { sitePrompt } from '../rag/prompt.js';
import { keywords } from '../rag/text.js';
import type { LlmInstance } from '../store/instance-store.js';
import type { ChatSink } from './chat-response.js';

/** A document an answer used: its source number (the [n] in the text), id, title and link. */
export interface Source {
  n: number;
  id: string;
  title: string;
  url: string | null;
}

export function normalizeLocale(value: string): string {
  const m = /^([a-zA-Z]{2,3})[-_]([a-zA-Z]{2})$/.exec(value.trim());
  return m ? `${m[1]!.toLowerCase()}_${m[2]!.toUpperCase()}` : value.trim();
}

/**
 * The site and locale a chat names (the site's first locale when none is given), or why there is none: the
 * original answers a chat on an unknown site or locale as one that is not enabled, not with a 404.
 */
export function siteAndLocale(
  domain: GenaiDomain,
  siteName: string,
  locale: string | undefined,
): { site: SearchSite; locale: string } | { missing: string } {
  const site = domain.sites().find(siteName);
  if (!site) return { missing: `no site named or with id "${siteName.slice(0, 100)}"` };
  const wanted = locale ? normalizeLocale(locale) : (site.locales[0] ?? 'en_US');
  if (!site.locales.includes(wanted))
    return {
      missing: `site "${site.name}" has no locale "${wanted.slice(0, 20)}" (it has: ${site.locales.join(', ')})`,
    };
  return { site, locale: wanted };
}

export type SiteChatStatus =
  | { enabled: true; instance: LlmInstance; systemPrompt: string }
  | { enabled: false; message: string };

/** Whether a site chats, and with which instance. */
export function siteChatStatus(domain: GenaiDomain, site: SearchSite): SiteChatStatus {
  const settings = domain.settings.forSite(site.id);
  if (!settings.enabled) return { enabled: false, message: `chat is turned off for site "${site.name}"` };
  const instance = domain.instances.find(settings.llmInstanceId);
  if (!instance)
    return {
      enabled: false,
      message: `the LLM instance "${settings.llmInstanceId}" of site "${site.name}" does not exist`,
    };
  if (!instance.enabled)
    return { enabled: false, message: `the LLM instance "${instance.title}" of site "${site.name}" is disabled` };
  if (vendorOf(instance.vendor)?.kind === 'embeddings-only')
    return {
      enabled: false,
      message: `the LLM instance "${instance.title}" of site "${site.name}" offers embeddings only, no chat`,
    };
  return { enabled: true, instance, systemPrompt: settings.systemPrompt };
}

/**
 * The documents an answer cites ([n] in its text), in source order; when it cites none (a model that
 * ignored the instruction), every document it was given.
 */
export function sourcesOf(passages: readonly Passage[], text: string): Source[] {
  const all: Source[] = [];
  for (const p of passages)
    if (!all.some((s) => s.n === p.n)) all.push({ n: p.n, id: p.docId, title: p.title, url: p.url });
  const cited = all.filter((s) => text.includes(`[${s.n}]`));
  return cited.length > 0 ? cited : all;
}

export const instanceSummary = (instance: LlmInstance): ChatInstanceRef => ({
  id: instance.id,
  title: instance.title,
  vendor: instance.vendor,
  model: instance.modelName,
});

/**
 * A site chat, once the route has found the site enabled and taken a slot: retrieval through the search
 * plugin, the prompt from the site's system prompt, one provider call; the `done` payload.
 */
export async function answerOnSite(
  domain: GenaiDomain,
  input: {
    site: SearchSite;
    locale: string;
    question: string;
    instance: LlmInstance;
    systemPrompt: string;
    username: string;
  },
  sink: ChatSink,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { siteChat } = domain.config;
  // A question without content words would search `*` and hand over the site's first documents as if
  // they answered it: it is answered as one that found nothing.
  const passages =
    keywords(input.question).length > 0
      ? (await domain.retriever.retrieve(input.site.name, input.locale, input.question, siteChat)).passages
      : [];
  signal.throwIfAborted();
  const provider = domain.providerFor(input.instance);
  const result = await domain.calls.call(
    { instance: input.instance, provider, username: input.username, endpoint: 'site-chat' },
    {
      // The extractive provider reads the passages and the bare question; a model reads both in the prompt.
      messages: provider.readsPassages
        ? [{ role: 'user', content: input.question }]
        : sitePrompt(input.systemPrompt, input.site.name, input.question, passages),
      passages,
    },
    signal,
    sink,
  );
  return {
    text: result.text,
    sources: sourcesOf(passages, result.text),
    finishReason: result.finishReason,
    usage: { ...result.usage, reported: result.reported },
    instance: instanceSummary(input.instance),
  };
}
