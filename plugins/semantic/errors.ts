import { VelaError } from 'vela/plugin';

/** Every error the semantic plugin answers with: code, status, message. */
export const semanticErrors = {
  siteNotFound: (site: string) =>
    new VelaError('site_not_found', `no site named or with id "${site.slice(0, 100)}"`, 404),
  invalidParameter: (name: string, message: string) =>
    new VelaError('invalid_parameter', `${name}: ${message}`, 400, { parameter: name }),
  instanceUnavailable: () =>
    new VelaError(
      'embeddings_unavailable',
      'LLM instances embed only when the genai plugin is loaded: use the built-in embedder ("embedder": "builtin")',
      409,
    ),
};
