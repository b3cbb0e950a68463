/**
 * How a vendor's instances chat: the built-in extractive answerer, the OpenAI chat-completions protocol, or not at
 * all (`embeddings-only`: Azure OpenAI and Gemini's native API offer embeddings here, chat through other vendors).
 */
export type ProviderKind = 'extractive' | 'openai-compatible' | 'embeddings-only';

/** The embeddings protocol of a vendor's instances (providers/embedding-protocols.ts); null: none. */
export type EmbeddingProtocolId = 'openai' | 'ollama' | 'azure-openai' | 'gemini';

export interface Vendor {
  id: string;
  title: string;
  kind: ProviderKind;
  /** The base URL an instance of this vendor gets when it names none (the part before /chat/completions). */
  defaultUrl: string | null;
  /** Whether the server wants an API key (sent as Authorization: Bearer). */
  needsApiKey: boolean;
  /** How its instances that name an embeddingModel compute embeddings; null: they cannot. */
  embeddings: EmbeddingProtocolId | null;
  website: string | null;
  description: string;
}

/** GET /api/llm/vendor. Every vendor that chats, but BUILTIN, speaks the OpenAI chat-completions protocol. */
export const VENDORS: readonly Vendor[] = [
  {
    id: 'BUILTIN',
    title: 'Built-in (extractive)',
    kind: 'extractive',
    defaultUrl: null,
    needsApiKey: false,
    embeddings: null,
    website: null,
    description:
      'no model: answers with the sentences of the retrieved passages that best match the question, with citations',
  },
  {
    id: 'OPENAI',
    title: 'OpenAI',
    kind: 'openai-compatible',
    defaultUrl: 'https://api.openai.com/v1',
    needsApiKey: true,
    embeddings: 'openai',
    website: 'https://platform.openai.com',
    description: 'the OpenAI API',
  },
  {
    id: 'OLLAMA',
    title: 'Ollama',
    kind: 'openai-compatible',
    defaultUrl: 'http://127.0.0.1:11434/v1',
    needsApiKey: false,
    embeddings: 'ollama',
    website: 'https://ollama.com',
    description:
      "a local Ollama server's OpenAI-compatible endpoint; embeddings use its native POST /api/embed (the URL without /v1)",
  },
  {
    id: 'VLLM',
    title: 'vLLM',
    kind: 'openai-compatible',
    defaultUrl: 'http://127.0.0.1:8000/v1',
    needsApiKey: false,
    embeddings: 'openai',
    website: 'https://docs.vllm.ai',
    description: "vLLM's OpenAI-compatible server",
  },
  {
    id: 'LLAMA_CPP',
    title: 'llama.cpp server',
    kind: 'openai-compatible',
    defaultUrl: 'http://127.0.0.1:8080/v1',
    needsApiKey: false,
    embeddings: 'openai',
    website: 'https://github.com/ggml-org/llama.cpp',
    description: "llama.cpp's llama-server",
  },
  {
    id: 'GEMINI_OPENAI',
    title: 'Google Gemini (OpenAI-compatible)',
    kind: 'openai-compatible',
    defaultUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    needsApiKey: true,
    embeddings: 'openai',
    website: 'https://ai.google.dev',
    description: "Gemini through Google's OpenAI-compatible endpoint",
  },
  {
    id: 'OPENAI_COMPATIBLE',
    title: 'Other OpenAI-compatible server',
    kind: 'openai-compatible',
    defaultUrl: null,
    needsApiKey: false,
    embeddings: 'openai',
    website: null,
    description: 'any server that answers POST <url>/chat/completions as OpenAI does (LM Studio, LocalAI, a gateway)',
  },
  {
    id: 'AZURE_OPENAI',
    title: 'Azure OpenAI',
    kind: 'embeddings-only',
    defaultUrl: null,
    needsApiKey: true,
    embeddings: 'azure-openai',
    website: 'https://learn.microsoft.com/azure/ai-services/openai/',
    description:
      'embeddings only (chat is not supported): url is the resource endpoint (https://<resource>.openai.azure.com), embeddingModel the deployment name',
  },
  {
    id: 'GEMINI',
    title: 'Google Gemini (native API)',
    kind: 'embeddings-only',
    defaultUrl: 'https://generativelanguage.googleapis.com/v1beta',
    needsApiKey: true,
    embeddings: 'gemini',
    website: 'https://ai.google.dev',
    description:
      'embeddings only (chat is not supported: use GEMINI_OPENAI for chat), with batchEmbedContents, e.g. embeddingModel gemini-embedding-001',
  },
];

export const VENDOR_IDS = VENDORS.map((v) => v.id);

export function vendorOf(id: string): Vendor | undefined {
  return VENDORS.find((v) => v.id === id);
}
