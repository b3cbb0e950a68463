import { VelaError } from 'vela/plugin';
import type { GenaiDomain } from '../domain.js';
import type { Passage, ToolCall, ToolSpec } from '../providers/provider.js';
import { describe, SEMANTIC_MODES, type SemanticMode } from '../rag/retriever.js';
import type { Agent } from './agent-store.js';

const MAX_FIELD_CHARS = 2000;

/** What the agent's tool calls found so far: documents numbered once each across calls, so answers cite [n]. */
export class FoundSources {
  private readonly numbers = new Map<string, number>();
  readonly passages: Passage[] = [];

  number(site: string, docId: string): number {
    const key = `${site}\u0000${docId}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.numbers.size + 1;
      this.numbers.set(key, n);
    }
    return n;
  }
}

/** The function definitions the model is offered, by the agent's tools and sites. */
export function toolSpecs(agent: Agent): ToolSpec[] {
  const site = {
    type: 'string',
    enum: agent.sites,
    description: `the site to use (default ${agent.sites[0] ?? 'none'})`,
  };
  const specs: ToolSpec[] = [];
  if (agent.tools.includes('search_site')) {
    specs.push({
      name: 'search_site',
      description:
        'Search the documents of a site. Returns the best matching documents, each with its source number n, title, link and the passages that match. Cite documents by [n].',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'what to look for, in a few words' },
          site,
          filters: {
            type: 'array',
            items: { type: 'string' },
            description: 'facet filters as field:value, e.g. section:editors',
          },
          rows: { type: 'integer', minimum: 1, maximum: 10, description: 'how many documents (default 5)' },
          semantic: {
            type: 'string',
            enum: [...SEMANTIC_MODES],
            description:
              'how to match: keyword (the words), vector (the meaning), hybrid (both, the default; keyword on a site without vectors)',
          },
        },
        required: ['query'],
      },
    });
  }
  if (agent.tools.includes('get_document')) {
    specs.push({
      name: 'get_document',
      description: 'Read one stored document of a site by its id: every field, as imported.',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', description: 'the document id' }, site },
        required: ['id'],
      },
    });
  }
  return specs;
}

function parseArguments(call: ToolCall): Record<string, unknown> {
  if (!call.arguments.trim()) return {};
  try {
    const value = JSON.parse(call.arguments) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    throw new ToolError(`the arguments of ${call.name} are not JSON: ${call.arguments.slice(0, 200)}`);
  }
}

class ToolError extends Error {}

/** The arguments as the client sees them in `tool_call` (parsed when they are JSON, else the text). */
export function displayArguments(call: ToolCall): unknown {
  try {
    return call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch {
    return call.arguments;
  }
}

function semanticArgument(value: unknown): SemanticMode {
  if (value === undefined || value === null || value === '') return 'hybrid';
  const mode = SEMANTIC_MODES.find((m) => m === value);
  if (!mode)
    throw new ToolError(
      `semantic must be one of ${SEMANTIC_MODES.join(', ')}, got ${JSON.stringify(value).slice(0, 100)}`,
    );
  return mode;
}

function siteArgument(agent: Agent, value: unknown): string {
  const site = typeof value === 'string' && value ? value : agent.sites[0];
  if (!site) throw new ToolError('this agent has no site to search');
  if (!agent.sites.includes(site))
    throw new ToolError(`site must be one of ${agent.sites.join(', ')}, got ${JSON.stringify(site).slice(0, 100)}`);
  return site;
}

/**
 * Runs one tool call through the search plugin's services. What a call gets wrong (unknown tool, bad
 * arguments, a filter the search refuses) is the tool's result, `{error}`, for the model to read and
 * correct; it does not end the chat.
 */
export async function runTool(
  domain: GenaiDomain,
  agent: Agent,
  call: ToolCall,
  found: FoundSources,
): Promise<unknown> {
  try {
    if (!(agent.tools as string[]).includes(call.name))
      throw new ToolError(`this agent has no tool named ${JSON.stringify(call.name).slice(0, 100)}`);
    const args = parseArguments(call);
    const site = siteArgument(agent, args.site);
    const known = domain.sites().find(site);
    if (!known) throw new ToolError(`site ${site} does not exist any more`);
    const locale = known.locales[0] ?? 'en_US';
    if (call.name === 'search_site') {
      if (typeof args.query !== 'string' || !args.query.trim()) throw new ToolError('query must be a non-empty string');
      const filters = Array.isArray(args.filters)
        ? args.filters.filter((f): f is string => typeof f === 'string').slice(0, 10)
        : [];
      const rows = Number.isInteger(args.rows) ? Math.min(10, Math.max(1, args.rows as number)) : 5;
      const semantic = semanticArgument(args.semantic);
      const { passageChars, passages } = domain.config.siteChat;
      const retrieval = await domain.retriever.retrieve(site, locale, args.query.slice(0, 500), {
        documents: rows,
        passages,
        passageChars,
        filters,
        semantic,
      });
      const byDoc = new Map<string, { n: number; id: string; title: string; url: string | null; passages: string[] }>();
      for (const p of retrieval.passages) {
        const n = found.number(site, p.docId);
        found.passages.push({ ...p, n });
        const entry = byDoc.get(p.docId) ?? { n, id: p.docId, title: p.title, url: p.url, passages: [] };
        entry.passages.push(p.text);
        byDoc.set(p.docId, entry);
      }
      return { site, query: args.query, documents: [...byDoc.values()] };
    }
    if (typeof args.id !== 'string' || !args.id) throw new ToolError('id must be a non-empty string');
    const [doc] = await domain.search().documents(site, locale, [args.id.slice(0, 400)]);
    if (!doc)
      return {
        site,
        id: args.id,
        error: `site ${site} has no document with id ${JSON.stringify(args.id).slice(0, 100)}`,
      };
    // Its title and link come from the site's default fields, which a one-row search of the site tells.
    const defaults = (
      await domain
        .search()
        .search(site, new URLSearchParams({ q: '*', _setlocale: locale, rows: '1', fl: 'id' }).toString())
    ).queryContext.defaultFields;
    const described = describe(doc, defaults);
    const n = found.number(site, doc.id);
    found.passages.push({
      n,
      docId: doc.id,
      title: described.title,
      url: described.url,
      text: described.text.slice(0, 4000),
      docRank: found.passages.length,
    });
    const fields = Object.fromEntries(
      Object.entries(doc.fields).map(([name, value]) => [
        name,
        typeof value === 'string' && value.length > MAX_FIELD_CHARS ? `${value.slice(0, MAX_FIELD_CHARS)}…` : value,
      ]),
    );
    return { site, n, id: doc.id, title: described.title, url: described.url, fields };
  } catch (error) {
    if (error instanceof ToolError) return { error: error.message };
    if (error instanceof VelaError && error.status < 500) return { error: error.message };
    throw error;
  }
}
