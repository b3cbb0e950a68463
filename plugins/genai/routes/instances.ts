import { type ApiRouter, OutboundRefused } from 'vela/plugin';
import type { GenaiDomain } from '../domain.js';
import { genaiErrors } from '../errors.js';
import { VENDORS } from '../providers/vendors.js';
import {
  idSchema,
  instanceCreateSchema,
  instanceSchema,
  instanceStructureSchema,
  instanceUpdateSchema,
  pathParams,
  RESERVED_INSTANCE_IDS,
  vendorSchema,
  withoutReadOnly,
} from '../schemas/common.js';
import { defaultOptions, type InstanceInput } from '../store/instance-store.js';
import { siteExists } from '../store/site-settings-store.js';

const tags = ['llm instances'];
const idParam = pathParams({ id: idSchema });

/**
 * The base URL of a model server is checked by the runtime's outbound guard when it is saved, as the
 * connector's web sources are: an internal address (Ollama on 127.0.0.1) needs the operator's
 * runtime.network.allowHosts. A name that does not resolve now is kept (the server may not be up yet).
 */
export function urlChecker(domain: GenaiDomain): (url: string) => Promise<void> {
  return async (url) => {
    // The URL is stored in the clear and answered with the instance; a key belongs in apiKey, which is sealed.
    if (hasCredentials(url))
      throw genaiErrors.invalidParameter(
        'url',
        'must not hold credentials (user:password@ or a key in the query): send the key as apiKey, which is stored encrypted',
      );
    try {
      await domain.outbound().check(url);
    } catch (error) {
      if (error instanceof OutboundRefused) {
        if (error.rule === 'unresolved') return;
        throw genaiErrors.invalidParameter(
          'url',
          `is ${error.message}; an operator can allow the host in runtime.network.allowHosts`,
        );
      }
      if (typeof (error as NodeJS.ErrnoException).code === 'string') return;
      throw error;
    }
  };
}

const KEY_PARAMETER = /^(?:api[-_]?key|key|token|access[-_]?token|secret)$/i;

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.username !== '' ||
      parsed.password !== '' ||
      [...parsed.searchParams.keys()].some((name) => KEY_PARAMETER.test(name))
    );
  } catch {
    return false;
  }
}

/** /api/llm: LLM instances (the original's llm_instance), for API tokens with the admin scope and the administrator. */
export function mountInstanceRoutes(router: ApiRouter, domain: GenaiDomain): void {
  const { instances } = domain;
  const checkUrl = urlChecker(domain);
  const usersOf = async (id: string) => {
    // Settings of a deleted site are left behind (the search plugin announces no deletion): they use nothing.
    await domain.settings.prune(siteExists(domain.sites()));
    const sites = (await domain.settings.sitesUsing(id)).map(
      (siteId) => `site "${domain.sites().find(siteId)?.name ?? siteId}"`,
    );
    const agents = (await domain.agents.namesUsing(id)).map((name) => `agent "${name}"`);
    return [...sites, ...agents];
  };

  const admin = router.withDefaults({ access: 'key', tags });
  const instance = admin.collection({
    path: '/api/llm',
    params: idParam,
    description: 'the instance',
    schema: instanceSchema,
  });
  instance.list(
    {
      summary: 'List LLM instances (API keys are never shown: hasApiKey and apiKeyHint say whether there is one)',
      description: 'instances',
    },
    () => instances.list(),
  );
  admin.item(
    'get',
    '/api/llm/structure',
    {
      summary: 'An empty instance: every member with its default',
      description: 'the empty instance',
      schema: instanceStructureSchema,
    },
    () => ({
      id: null,
      title: '',
      description: '',
      vendor: 'OPENAI_COMPATIBLE',
      url: null,
      modelName: null,
      embeddingModel: null,
      hasApiKey: false,
      apiKeyHint: null,
      ...defaultOptions(VENDORS.find((v) => v.id === 'OPENAI_COMPATIBLE')),
      enabled: true,
      publicChat: false,
    }),
  );
  admin.list(
    '/api/llm/vendor',
    {
      summary: 'The vendors an instance can name, with their provider kind and default base URL',
      description: 'the vendors',
      items: vendorSchema,
    },
    () => VENDORS,
  );
  instance
    .create({ summary: 'Create an LLM instance', body: instanceCreateSchema, description: 'created' }, (req) => {
      const input = withoutReadOnly(req.body as InstanceInput);
      if (input.id && RESERVED_INSTANCE_IDS.includes(input.id))
        throw genaiErrors.invalidParameter(
          'body.id',
          `must not be ${RESERVED_INSTANCE_IDS.map((r) => `"${r}"`).join(' or ')}: GET /api/llm/${input.id} is another route`,
        );
      return instances.create(input, checkUrl);
    })
    .read({ summary: 'One LLM instance' }, (id) => instances.get(id))
    .replace(
      {
        summary: 'Change an LLM instance (members left out stay; apiKey left out keeps the key, null removes it)',
        body: instanceUpdateSchema,
      },
      (id, req) => {
        const { id: _ignored, ...input } = withoutReadOnly(req.body as InstanceInput);
        return instances.update(id, input, checkUrl);
      },
    )
    .remove(
      {
        summary: 'Delete an LLM instance (409 while a site or an agent uses it; the built-in one cannot be deleted)',
        description: 'the instance is deleted',
        responses: { 409: { description: 'a site or an agent uses the instance: the message names them' } },
      },
      async (id) => {
        await instances.remove(id, usersOf);
        return { id };
      },
    );
}
