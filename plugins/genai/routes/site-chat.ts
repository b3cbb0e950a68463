import type { SearchSite } from '@vela/plugin-search/api';
import { type ApiRouter, principalOf, type Request, type Response, VelaError } from 'vela/plugin';
import { respond, wantsJson } from '../chat/chat-response.js';
import { answerOnSite, instanceSummary, siteAndLocale, siteChatStatus } from '../chat/site-chat.js';
import type { GenaiDomain } from '../domain.js';
import { genaiErrors } from '../errors.js';
import {
  pathParams,
  siteChatJsonSchema,
  siteRefSchema,
  siteSettingsBody,
  siteSettingsSchema,
  sseResponse,
} from '../schemas/common.js';
import type { SiteSettings } from '../store/site-settings-store.js';

const siteParam = pathParams({ siteName: siteRefSchema });

/** A chat that cannot run: its reason as JSON, or as the one `disabled` event of a stream. */
function answerDisabled(res: Response, json: boolean, body: Record<string, unknown>): void {
  if (json) {
    res.json(body);
    return;
  }
  res
    .status(200)
    .type('text/event-stream')
    .set('Cache-Control', 'no-cache')
    .send(`event: disabled\ndata: ${JSON.stringify(body)}\n\n`);
}

/** GET /api/sn/{site}/chat (public, the spec's SSE stream) and the site's GenAI settings. */
export function mountSiteChatRoutes(router: ApiRouter, domain: GenaiDomain): void {
  router.get(
    '/api/sn/:siteName/chat',
    {
      access: 'public',
      tags: ['chat'],
      summary: "Ask a site a question: an answer grounded in the site's documents, streamed as Server-Sent Events",
      description:
        'Without q (or with q=*): whether the site chats, as JSON {enabled, text: null, sources: []}. With Accept: application/json (and not text/event-stream): one JSON answer {enabled, text, sources, usage, instance}. An unknown site or locale is a chat that is not enabled: {enabled: false, text: null, sources: [], message}.',
      params: siteParam,
      query: {
        type: 'object',
        properties: {
          q: { type: 'string', maxLength: 2000, description: 'the question' },
          _setlocale: {
            type: 'string',
            maxLength: 10,
            description: "the locale to search (default: the site's first)",
          },
        },
      },
      responses: { 200: sseResponse(siteChatJsonSchema) },
    },
    async (req, res) => {
      const query = req.query as { q?: string; _setlocale?: string };
      const question = (query.q ?? '').trim();
      const json = wantsJson(req);
      const found = siteAndLocale(domain, String(req.params.siteName), query._setlocale || undefined);
      if ('missing' in found) {
        const body = { enabled: false, text: null, sources: [], message: found.missing };
        return answerDisabled(res, json || !question || question === '*', body);
      }
      const { site, locale } = found;
      const status = siteChatStatus(domain, site);
      if (!question || question === '*') {
        res.json(
          status.enabled
            ? {
                enabled: true,
                text: null,
                sources: [],
                site: site.name,
                locale,
                instance: instanceSummary(status.instance),
              }
            : { enabled: false, text: null, sources: [], site: site.name, locale, message: status.message },
        );
        return;
      }
      if (!status.enabled)
        return answerDisabled(res, json, {
          enabled: false,
          text: null,
          sources: [],
          site: site.name,
          message: status.message,
        });
      const { instance, systemPrompt } = status;
      const release = domain.slots.acquire(instance);
      const username = principalOf(res)?.username ?? 'anonymous';
      await respond({
        req,
        res,
        json,
        heartbeatMs: domain.config.heartbeatMs,
        timeoutMs: instance.timeoutMs,
        active: domain.active,
        logger: domain.logger,
        start: { site: site.name, locale, question, instance: instanceSummary(instance) },
        run: (sink, signal) =>
          answerOnSite(domain, { site, locale, question, instance, systemPrompt, username }, sink, signal),
        toJson: (done) => ({
          enabled: true,
          text: done.text,
          sources: done.sources,
          usage: done.usage,
          instance: done.instance,
        }),
        finish: release,
      });
    },
  );

  const siteOf = (siteName: string) => {
    const site = domain.sites().find(siteName);
    if (!site) throw new VelaError('site_not_found', `no site named or with id "${siteName.slice(0, 100)}"`, 404);
    return site;
  };
  const view = (site: SearchSite, settings: SiteSettings) => ({ site: site.name, siteId: site.id, ...settings });
  // The settings of a site: read with the search scope, changed with the admin one.
  const path = '/api/sn/:siteName/genai';
  const settings = { params: siteParam, description: 'the settings', schema: siteSettingsSchema };
  const siteIn = (req: Request) => siteOf(String(req.params.siteName));
  router
    .withDefaults({ access: 'key', scope: 'search', tags: ['chat'] })
    .item(
      'get',
      path,
      { summary: "A site's GenAI settings: enabled, LLM instance, system prompt", ...settings },
      (req) => {
        const site = siteIn(req);
        return view(site, domain.settings.forSite(site.id));
      },
    );
  router
    .withDefaults({ access: 'key', tags: ['chat'] })
    .item(
      'put',
      path,
      { summary: "Change a site's GenAI settings (members left out stay)", body: siteSettingsBody, ...settings },
      async (req) => {
        const site = siteIn(req);
        const body = req.body as { enabled?: boolean; llmInstanceId?: string; systemPrompt?: string };
        if (body.llmInstanceId !== undefined && !domain.instances.find(body.llmInstanceId))
          throw genaiErrors.invalidParameter(
            'llmInstanceId',
            `names no LLM instance: ${JSON.stringify(body.llmInstanceId)}`,
          );
        return view(site, await domain.settings.save(site.id, body));
      },
    )
    .item(
      'delete',
      path,
      {
        summary: "Drop a site's GenAI settings: back to the defaults",
        ...settings,
        description: 'the default settings',
      },
      async (req) => {
        const site = siteIn(req);
        return view(site, await domain.settings.reset(site.id));
      },
    );
}
