import http from 'node:http';
import { listenLocally } from './fake-llm.js';

// A local server speaking four embeddings protocols, for the tests:
//
//   POST /v1/embeddings                                   OpenAI: {model, input} → data[] (sent in reverse order)
//   POST /api/embed                                       Ollama: {model, input} → {embeddings, prompt_eval_count}
//   POST /openai/deployments/<deployment>/embeddings      Azure OpenAI (api-key header, ?api-version=)
//   POST /v1beta/models/<model>:batchEmbedContents        Gemini (x-goog-api-key header) → {embeddings: [{values}]}
//
// What it answers is chosen by the model (Azure: the deployment):
//
//   rate-limited   the first request 429 with Retry-After: 1, then as any other
//   broken         503 every time
//   shifty...      vectors of 3 numbers in the first answer of the model, 4 after
//   any other      vectorOf(text) for each text; usage: one token per text

export interface EmbeddingRequestRecord {
  path: string;
  model: string;
  texts: string[];
  headers: http.IncomingHttpHeaders;
}

export interface FakeEmbeddings {
  /** http://127.0.0.1:<port> */
  origin: string;
  host: string;
  requests: EmbeddingRequestRecord[];
  stop(): Promise<void>;
}

/** The vector the fake gives a text: its length, its first character's code, its last one's. */
export function vectorOf(text: string, dimensions = 3): number[] {
  const vector = [text.length, text.charCodeAt(0), text.charCodeAt(text.length - 1)];
  return dimensions === 3 ? vector : [...vector, 1];
}

interface Protocol {
  route: RegExp;
  /** The model and texts of a request: its body, and what the path matched. */
  read(body: any, match: RegExpMatchArray): { model: string; texts: string[] };
  answer(vectors: number[][], model: string): unknown;
}

const PROTOCOLS: Protocol[] = [
  {
    route: /^\/v1\/embeddings$/,
    read: (body) => ({ model: body.model, texts: body.input }),
    answer: (vectors, model) => ({
      object: 'list',
      model,
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
      usage: { prompt_tokens: vectors.length, total_tokens: vectors.length },
    }),
  },
  {
    route: /^\/api\/embed$/,
    read: (body) => ({ model: body.model, texts: body.input }),
    answer: (embeddings, model) => ({ model, embeddings, prompt_eval_count: embeddings.length }),
  },
  {
    route: /^\/openai\/deployments\/([^/]+)\/embeddings\?api-version=[\w-]+$/,
    read: (body, match) => ({ model: decodeURIComponent(match[1]!), texts: body.input }),
    answer: (vectors) => ({
      data: vectors.map((embedding, index) => ({ index, embedding })),
      usage: { prompt_tokens: vectors.length, total_tokens: vectors.length },
    }),
  },
  {
    route: /^\/v1beta\/models\/([^/:]+):batchEmbedContents$/,
    read: (body, match) => {
      const ok = body.requests.every((r: any) => r.model === `models/${match[1]}`);
      return {
        model: ok ? match[1]! : 'model mismatch',
        texts: body.requests.map((r: any) => r.content.parts[0].text),
      };
    },
    answer: (vectors) => ({ embeddings: vectors.map((values) => ({ values })) }),
  },
];

function reply(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const requests: EmbeddingRequestRecord[] = [];
  const seen = new Map<string, number>();
  const handle = (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const url = req.url ?? '';
    const protocol = PROTOCOLS.find((p) => p.route.test(url));
    if (req.method !== 'POST' || !protocol) return reply(res, 404, { error: { message: 'not found' } });
    const { model, texts } = protocol.read(JSON.parse(raw), url.match(protocol.route)!);
    requests.push({ path: url, model, texts, headers: req.headers });
    const count = (seen.get(model) ?? 0) + 1;
    seen.set(model, count);
    if (model === 'rate-limited' && count === 1)
      return reply(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' });
    if (model === 'broken') return reply(res, 503, { error: { message: 'overloaded' } });
    const dimensions = model.startsWith('shifty') && count > 1 ? 4 : 3;
    reply(
      res,
      200,
      protocol.answer(
        texts.map((text) => vectorOf(text, dimensions)),
        model,
      ),
    );
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const { host, stop } = await listenLocally(server);
  return { origin: `http://${host}`, host, requests, stop };
}
