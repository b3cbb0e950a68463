import {
  type ApiRouter,
  HOP_BY_HOP_HEADERS,
  type OutboundGuard,
  OutboundRefused,
  pathParams,
  type Request,
  type Response,
  recordSchema,
  VelaError,
} from 'vela/plugin';
import type { IntegrationProxy } from '../proxy/integration-proxy.js';
import { idSchema } from '../schemas/common.js';
import {
  DEFAULT_PROXY_METHODS,
  type IntegrationInput,
  type IntegrationStore,
  PROXY_METHODS,
} from '../store/integration-store.js';
import { VENDOR_IDS, vendors } from '../vendors.js';

const tags = ['integrations'];
const idParam = pathParams({ id: idSchema });

const HEADER_NAME = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$";
/** Headers an instance may not add: the connection's own, and what the proxy computes. */
const RESERVED_HEADERS = new Set([...HOP_BY_HOP_HEADERS, 'host', 'content-length', 'expect']);

const headerInput = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: HEADER_NAME, description: 'header name' },
    value: {
      type: 'string',
      maxLength: 4096,
      pattern: '^[^\\r\\n\\u0000]*$',
      description: 'its value, stored encrypted and never shown again; leave out to keep the stored one',
    },
  },
};

const properties = {
  id: idSchema,
  title: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  vendor: { type: 'string', enum: [...VENDOR_IDS] },
  endpoint: {
    type: 'string',
    minLength: 1,
    maxLength: 2000,
    description: 'http(s) URL the forwarded paths are appended to',
  },
  enabled: { type: 'boolean' },
  allowedPaths: {
    type: 'array',
    maxItems: 50,
    items: { type: 'string', maxLength: 500, pattern: '^/[^\\s?#\\\\]*$' },
    description: 'path prefixes (after the id) the proxy forwards; [] forwards any path',
  },
  allowedMethods: {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { type: 'string', enum: [...PROXY_METHODS] },
    description: `methods the proxy forwards (HEAD with GET); default ${DEFAULT_PROXY_METHODS.join(', ')}: the proxy is public, so a write reaches the upstream with the instance's headers for anyone, and must be listed here`,
  },
  headers: {
    type: 'array',
    maxItems: 20,
    items: headerInput,
    description: 'headers the proxy adds to each request (for the connector, its Key)',
  },
};

const createBody = { type: 'object', additionalProperties: false, required: ['title', 'vendor'], properties };
const updateBody = { type: 'object', additionalProperties: false, properties };

const integrationSchema = recordSchema({
  ...properties,
  headers: {
    type: 'array',
    items: recordSchema({ name: 'string', hint: { type: 'string', description: 'the last characters of the value' } }),
  },
  createdAt: 'string',
  updatedAt: 'string',
});

/** The empty instance a form starts from: no id yet, so none of the members' rules apply. */
const structureSchema = {
  type: 'object',
  properties: {
    ...properties,
    id: { type: 'string', description: 'empty: the service gives a new instance its id' },
    title: { type: 'string' },
    endpoint: { type: 'string' },
    headers: { type: 'array', items: headerInput },
  },
};

const vendorSchema = {
  type: 'object',
  required: ['id', 'title', 'description', 'defaultEndpoint', 'headers'],
  properties: {
    id: { type: 'string', enum: [...VENDOR_IDS] },
    title: { type: 'string' },
    description: { type: 'string' },
    defaultEndpoint: {
      type: ['string', 'null'],
      description: 'the endpoint a new instance gets when none is given; null: it must be given',
    },
    headers: {
      type: 'array',
      items: { type: 'string' },
      description: 'headers an instance of this vendor usually adds',
    },
  },
};

export interface IntegrationRoutes {
  store: IntegrationStore;
  proxy: IntegrationProxy;
  outbound: () => OutboundGuard;
  /** The connector service's address when it runs in this process (known once the services listen). */
  connectorUrl: () => string | null;
}

export function mountIntegrationRoutes(router: ApiRouter, routes: IntegrationRoutes): void {
  const { store, proxy } = routes;
  const admin = router.withDefaults({ access: 'key', tags });
  const theInstance = { description: 'the instance', schema: integrationSchema };
  const instance = admin.collection({ path: '/api/integration', params: idParam, ...theInstance });
  instance.list({ summary: 'List integration instances, by title', description: 'instances' }, () => store.list());
  admin.item(
    'get',
    '/api/integration/structure',
    {
      summary: 'An empty integration instance, as a form starts from',
      description: 'the empty instance',
      schema: structureSchema,
    },
    () => ({
      id: '',
      title: '',
      description: '',
      vendor: 'HTTP',
      endpoint: '',
      enabled: true,
      allowedPaths: [],
      allowedMethods: [...DEFAULT_PROXY_METHODS],
      headers: [],
    }),
  );
  admin.list(
    '/api/integration/vendor',
    { summary: 'The vendors integration instances can have', description: 'the vendors', items: vendorSchema },
    () => vendors(routes.connectorUrl()),
  );
  instance.read({ summary: 'Get an integration instance' }, (id) => store.get(id));
  // Created by hand: the operation has a description of its own.
  admin.post(
    '/api/integration',
    {
      summary: 'Create an integration instance',
      description:
        'Header values are stored encrypted (AES-256-GCM) and answered as a hint only. An endpoint at an internal address is refused unless the operator allows its host.',
      body: createBody,
      responses: { 201: theInstance },
    },
    async (req, res) => {
      const input = req.body as IntegrationInput & { endpoint?: string };
      const endpoint =
        input.endpoint ?? (input.vendor === 'CONNECTOR' ? vendors(routes.connectorUrl())[0]!.defaultEndpoint : null);
      if (!endpoint)
        throw new VelaError(
          'validation_failed',
          'body.endpoint is required (no connector runs in this process to take its address from)',
          400,
        );
      checkHeaders(input.headers);
      await checkEndpoint(routes.outbound(), endpoint);
      res.status(201).json(await store.create({ ...input, endpoint }));
    },
  );
  instance
    .replace({ summary: 'Change an integration instance (the members given)', body: updateBody }, async (id, req) => {
      const patch = req.body as Partial<IntegrationInput>;
      if (patch.id !== undefined && patch.id !== id)
        throw new VelaError('validation_failed', `body.id must be "${id}" (an instance keeps its id)`, 400);
      checkHeaders(patch.headers);
      if (patch.endpoint !== undefined) await checkEndpoint(routes.outbound(), patch.endpoint);
      const { id: _ignored, ...changes } = patch;
      return store.update(id, changes);
    })
    .remove({ summary: 'Delete an integration instance', description: 'the instance is deleted' }, async (id) => ({
      id: (await store.delete(id)).id,
    }));

  // The proxy: public, as the specification lists it; each method an instance may forward, HEAD with GET.
  const spec = {
    access: 'public' as const,
    tags,
    summary: 'Forward a request to an integration instance',
    description:
      "Public: anyone who reaches the search service gets what the instance's headers grant, within its allowedPaths and allowedMethods (GET and HEAD unless the instance lists more). The method, the path after the id, the query string, the body (streamed) and safe headers go to the instance endpoint; status, headers and body come back streamed. 404 for an unknown or disabled instance, 405 for a method the instance does not forward, 403 path_refused or address_refused naming the rule, 413 for a body over the limit, 502 and 504 when the upstream fails, 503 integration_secret_unreadable when the stored headers cannot be decrypted.",
    rawBody: true,
    validate: false,
    responses: {
      200: {
        description: "the upstream's answer, as it came (any status and type)",
        contentType: '*/*',
        schema: { type: 'string', format: 'binary' },
      },
      403: {
        description:
          'path_refused (outside allowedPaths) or address_refused (the endpoint resolves to an address not allowed)',
      },
      404: { description: 'no enabled instance has this id' },
      405: { description: 'the instance does not forward this method' },
      413: { description: 'the request body is larger than the limit' },
      502: { description: 'the upstream could not be reached or answered badly' },
      503: { description: 'integration_secret_unreadable: the stored headers cannot be decrypted' },
      504: { description: 'the upstream did not answer in time' },
    },
  };
  const forward = (req: Request, res: Response) => proxy.forward(req, res);
  for (const path of ['/api/v2/integration/:integrationId', '/api/v2/integration/:integrationId/*rest'])
    for (const method of ['get', 'post', 'put', 'delete', 'patch'] as const) router[method](path, spec, forward);
}

function checkHeaders(headers: Array<{ name: string }> | undefined): void {
  const names = new Set<string>();
  for (const [i, { name }] of (headers ?? []).entries()) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower))
      throw new VelaError('validation_failed', `body.headers[${i}].name: ${name} is set by the proxy itself`, 400);
    if (names.has(lower))
      throw new VelaError('validation_failed', `body.headers[${i}].name: ${name} is given twice`, 400);
    names.add(lower);
  }
}

/**
 * The endpoint must be an http(s) URL without user info, query or fragment, whose host the outbound guard lets through.
 */
async function checkEndpoint(guard: OutboundGuard, endpoint: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new VelaError('validation_failed', 'body.endpoint is not a URL', 400);
  }
  if (url.search || url.hash)
    throw new VelaError('validation_failed', 'body.endpoint must not have a query string or fragment', 400);
  try {
    await guard.check(url);
  } catch (error) {
    if (error instanceof OutboundRefused) {
      throw new VelaError(
        'validation_failed',
        `body.endpoint is ${error.message}; an operator can allow the host in runtime.network.allowHosts (docs/SECURITY.md)`,
        400,
      );
    }
    // A name that does not resolve now is checked again on every request.
  }
}
