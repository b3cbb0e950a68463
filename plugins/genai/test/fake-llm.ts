import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local OpenAI-compatible server for the tests: POST /v1/chat/completions streams chunks as OpenAI does
// (data: {json}, then data: [DONE]). What it does is chosen by the request's model:
//
//   echo         "Hello from the fake model." in six chunks, then usage 11 + 6 = 17
//   cite         "The answer is in <title of source [1]> [1]." quoting the prompt's first source, usage 50 + 9
//   tools        first call: a search_site tool call streamed in fragments (usage 20 + 5); once the request
//                holds a tool result: "Found it in <title> [n]." from that result (usage 40 + 8)
//   get-doc      first call: get_document {id: "backup"}; with its result: "Read <title> [n]." (usage 20 + 5, 40 + 8)
//   filter       first call: search_site {query: "data folder", filters: ["section:Setup"]}; with its result: "Setup: <ids>."
//   bad-filter   first call: search_site with the filter "Setup" (not field:value); with its result: "The search said: <error>"
//   keyword      first call: search_site {query: "restore a backup", semantic: "keyword"}; with its result: as tools
//   bad-semantic first call: search_site with semantic "sideways"; with its result: "The search said: <error>"
//   chatty       first call: "Let me search." and the search_site call of tools; with its result: as tools
//   loop         a search_site call whenever the request offers tools; without tools: "Out of steps: <title> [n]."
//   stubborn     a search_site call on every request, tools offered or not (a model that ignores their absence)
//   no-usage     "Counted by Vela." with a finish reason and no usage at all
//   error-mid    two chunks, then the connection is destroyed
//   error-event  two chunks, then {"error":{"message":"model overloaded"}}
//   slow         "tick " every 100 ms until the client goes away
//   stall        one chunk, then nothing
//   http-401     401 {"error":{"message":"invalid api key"}}
//   json         one JSON completion (a server that ignores stream: true)
//   any other    as cite

export interface RecordedRequest {
  model: string;
  body: any;
  authorization: string | undefined;
  startedAt: number;
  /** When the client closed the connection before the answer ended. */
  closedAt?: number;
  ended: boolean;
}

export interface FakeLlm {
  /** The base URL to configure: http://127.0.0.1:<port>/v1 */
  url: string;
  /** host:port, for runtime.network.allowHosts. */
  host: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

const chunk = (model: string, delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usageChunk = (model: string, prompt: number, completion: number) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamText(
  res: http.ServerResponse,
  model: string,
  pieces: string[],
  usage: [number, number] | null,
  gapMs = 5,
): Promise<void> {
  res.write(chunk(model, { role: 'assistant', content: '' }));
  for (const piece of pieces) {
    await sleep(gapMs);
    res.write(chunk(model, { content: piece }));
  }
  res.write(chunk(model, {}, 'stop'));
  if (usage) res.write(usageChunk(model, usage[0], usage[1]));
  res.end('data: [DONE]\n\n');
}

/** One tool call, its arguments streamed in fragments, after `text` when there is some; usage 20 + 5. */
async function streamToolCall(
  res: http.ServerResponse,
  model: string,
  name: string,
  args: unknown,
  text = '',
): Promise<void> {
  res.write(chunk(model, { role: 'assistant', content: text }));
  res.write(
    chunk(model, { tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name, arguments: '' } }] }),
  );
  const json = JSON.stringify(args);
  const cut = Math.floor(json.length / 2);
  for (const fragment of [json.slice(0, cut), json.slice(cut)]) {
    await sleep(5);
    res.write(chunk(model, { tool_calls: [{ index: 0, function: { arguments: fragment } }] }));
  }
  res.write(chunk(model, {}, 'tool_calls'));
  res.write(usageChunk(model, 20, 5));
  res.end('data: [DONE]\n\n');
}

interface OneTool {
  name: string;
  args: unknown;
  text?: string;
  answer: (result: any) => string[];
}

const FOUND_IT: OneTool = {
  name: 'search_site',
  args: { query: 'back up the data folder' },
  answer: (r) => ['Found it', ` in ${r.documents?.[0]?.title ?? 'nothing'}`, ` [${r.documents?.[0]?.n ?? 0}].`],
};

/** The models that call one tool, then answer from its result: the call, and the answer. */
const ONE_TOOL: Record<string, OneTool> = {
  tools: FOUND_IT,
  chatty: { ...FOUND_IT, text: 'Let me search.' },
  'get-doc': {
    name: 'get_document',
    args: { id: 'backup' },
    answer: (r) => ['Read ', r.title ?? r.error, ` [${r.n ?? 0}].`],
  },
  filter: {
    name: 'search_site',
    args: { query: 'data folder', filters: ['section:Setup'] },
    answer: (r) => ['Setup: ', (r.documents ?? []).map((d: any) => d.id).join(', '), '.'],
  },
  'bad-filter': {
    name: 'search_site',
    args: { query: 'port', filters: ['Setup'] },
    answer: (r) => ['The search said: ', r.error ?? 'nothing'],
  },
  keyword: { ...FOUND_IT, args: { query: 'restore a backup', semantic: 'keyword' } },
  'bad-semantic': {
    name: 'search_site',
    args: { query: 'port', semantic: 'sideways' },
    answer: (r) => ['The search said: ', r.error ?? 'nothing'],
  },
};

function lastToolResult(body: any): any {
  const tool = [...body.messages].reverse().find((m: any) => m.role === 'tool');
  return tool ? JSON.parse(tool.content) : null;
}

async function answer(res: http.ServerResponse, record: RecordedRequest): Promise<void> {
  const { model, body } = record;
  if (model === 'http-401') {
    res
      .writeHead(401, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'invalid api key', type: 'invalid_request_error' } }));
    return;
  }
  if (model === 'json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'One piece only.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  switch (model) {
    case 'echo':
      return streamText(res, model, ['Hello', ' from', ' the', ' fake', ' model', '.'], [11, 6]);
    case 'no-usage':
      return streamText(res, model, ['Counted', ' by', ' Vela.'], null);
    case 'tools':
    case 'get-doc':
    case 'filter':
    case 'bad-filter':
    case 'keyword':
    case 'bad-semantic':
    case 'chatty': {
      const plan = ONE_TOOL[model]!;
      const result = lastToolResult(body);
      if (!result) return streamToolCall(res, model, plan.name, plan.args, plan.text);
      return streamText(res, model, plan.answer(result), [40, 8]);
    }
    case 'loop':
    case 'stubborn': {
      if (model === 'stubborn' || body.tools?.length)
        return streamToolCall(res, model, 'search_site', { query: 'back up the data folder' });
      const doc = lastToolResult(body)?.documents?.[0];
      return streamText(res, model, ['Out of steps: ', doc?.title ?? 'nothing', ` [${doc?.n ?? 0}].`], [40, 8]);
    }
    case 'error-mid':
      res.write(chunk(model, { content: 'Half' }));
      await sleep(5);
      res.write(chunk(model, { content: ' an answer' }));
      await sleep(20);
      res.destroy();
      return;
    case 'error-event':
      res.write(chunk(model, { content: 'Half' }));
      res.write(chunk(model, { content: ' an answer' }));
      await sleep(5);
      res.end(`data: ${JSON.stringify({ error: { message: 'model overloaded' } })}\n\n`);
      return;
    case 'slow':
      while (!res.destroyed && !res.writableEnded) {
        res.write(chunk(model, { content: 'tick ' }));
        await sleep(100);
      }
      return;
    case 'stall':
      res.write(chunk(model, { content: 'Thinking' }));
      await new Promise((resolve) => res.on('close', resolve));
      return;
    default: {
      const prompt = body.messages.map((m: any) => m.content).join('\n');
      const title = /\[1\] ([^\n(]+)/.exec(prompt)?.[1]?.trim() ?? 'nothing';
      return streamText(res, model, ['The answer', ' is in ', title, ' [1].'], [50, 9]);
    }
  }
}

export async function startFakeLlm(port = 0): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const record: RecordedRequest = {
        model: body.model,
        body,
        authorization: req.headers.authorization,
        startedAt: Date.now(),
        ended: false,
      };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.closedAt = Date.now();
        record.ended = true;
      });
      answer(res, record).catch(() => res.destroy());
    });
  });
  const { host, stop } = await listenLocally(server, port);
  return { url: `http://${host}/v1`, host, requests, stop };
}

/** A test server listening on 127.0.0.1 (`port` 0: any free one): its host:port, and how to stop it. */
export async function listenLocally(
  server: http.Server,
  port = 0,
): Promise<{ host: string; stop: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    host: `127.0.0.1:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
