/** How a vendor's instances talk: the built-in extractive answerer, or the OpenAI chat-completions protocol. */
export type ProviderKind = 'extractive' | 'openai-compatible';

export interface Vendor {
  id: string;
  title: string;
  kind: ProviderKind;
  /** The base URL an instance of this vendor gets when it names none (the part before /chat/completions). */
  defaultUrl: string | null;
  /** Whether the server wants an API key (sent as Authorization: Bearer). */
  needsApiKey: boolean;
  website: string | null;
  description: string;
}

/** GET /api/llm/vendor. Every vendor but BUILTIN speaks the OpenAI chat-completions protocol. */
export const VENDORS: readonly Vendor[] = [
  {
    id: 'BUILTIN',
    title: 'Built-in (extractive)',
    kind: 'extractive',
    defaultUrl: null,
    needsApiKey: false,
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
    website: 'https://platform.openai.com',
    description: 'the OpenAI API',
  },
  {
    id: 'OLLAMA',
    title: 'Ollama',
    kind: 'openai-compatible',
    defaultUrl: 'http://127.0.0.1:11434/v1',
    needsApiKey: false,
    website: 'https://ollama.com',
    description: "a local Ollama server's OpenAI-compatible endpoint",
  },
  {
    id: 'VLLM',
    title: 'vLLM',
    kind: 'openai-compatible',
    defaultUrl: 'http://127.0.0.1:8000/v1',
    needsApiKey: false,
    website: 'https://docs.vllm.ai',
    description: "vLLM's OpenAI-compatible server",
  },
  {
    id: 'LLAMA_CPP',
    title: 'llama.cpp server',
    kind: 'openai-compatible',
    defaultUrl: 'http://127.0.0.1:8080/v1',
    needsApiKey: false,
    website: 'https://github.com/ggml-org/llama.cpp',
    description: "llama.cpp's llama-server",
  },
  {
    id: 'GEMINI_OPENAI',
    title: 'Google Gemini (OpenAI-compatible)',
    kind: 'openai-compatible',
    defaultUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    needsApiKey: true,
    website: 'https://ai.google.dev',
    description: "Gemini through Google's OpenAI-compatible endpoint",
  },
  {
    id: 'OPENAI_COMPATIBLE',
    title: 'Other OpenAI-compatible server',
    kind: 'openai-compatible',
    defaultUrl: null,
    needsApiKey: false,
    website: null,
    description: 'any server that answers POST <url>/chat/completions as OpenAI does (LM Studio, LocalAI, a gateway)',
  },
];

export const VENDOR_IDS = VENDORS.map((v) => v.id);

export function vendorOf(id: string): Vendor | undefined {
  return VENDORS.find((v) => v.id === id);
}
