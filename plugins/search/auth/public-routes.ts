/**
 * Endpoints that need no credentials: exactly the spec's Authentication list, plus the runtime's
 * health and API description and the sample search page. Everything else needs the Key header,
 * the administrator's Basic credentials or a console session.
 */
const PUBLIC: Array<{ methods: Set<string>; path: RegExp }> = [
  { methods: new Set(['GET', 'POST']), path: /^\/api\/sn\/[^/]+\/search(\/locales)?\/?$/ },
  { methods: new Set(['GET']), path: /^\/api\/sn\/[^/]+\/(chat|ac)\/?$/ },
  { methods: new Set(['POST']), path: /^\/api\/genai\/chat\/?$/ },
  { methods: new Set(['POST']), path: /^\/api\/ocr(\/.*)?$/ },
  { methods: new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']), path: /^\/api\/v2\/integration\/[^/]+(\/.*)?$/ },
  { methods: new Set(['GET']), path: /^\/api\/v2\/guest(\/.*)?$/ },
  { methods: new Set(['POST']), path: /^\/graphql\/?$/ },
  { methods: new Set(['GET']), path: /^\/api\/login\/?$/ },
  { methods: new Set(['GET']), path: /^\/(health|v3\/api-docs|swagger-ui\.html)$/ },
  { methods: new Set(['GET']), path: /^\/sn(\/.*)?$/ },
];

export function isPublic(method: string, path: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  return m === 'OPTIONS' || PUBLIC.some((rule) => rule.methods.has(m) && rule.path.test(path));
}
