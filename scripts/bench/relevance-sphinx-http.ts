// Sphinx behind the least HTTP server that answers as a search service does: `GET /search?q=...[&fq=field:value]`
// runs the faceted SphinxQL statement (filtered on the string attribute when `fq` says so) and answers the ids and
// facet counts as JSON. Timed like Vela's HTTP search, so that the
// goal compares two HTTP services rather than an HTTP service with a bare socket query.
import http from 'node:http';
import type net from 'node:net';
import { TOP } from './relevance-metrics.js';
import type { SphinxFilter, SphinxSystem } from './relevance-sphinx.js';

export interface SphinxHttp {
  base: string;
  stop(): Promise<void>;
}

/** Result sets to an answer: the first holds the hits, each further one a facet's values and counts. */
function answer(sets: Array<Array<Array<string | null>>>): unknown {
  const [hits = [], ...facets] = sets;
  return {
    ids: hits.map(([id]) => Number(id) - 1),
    facets: facets.map((rows) => rows.map(([value, count]) => ({ value, count: Number(count) }))),
  };
}

/** `field:value` as Vela's `fq[]` has it; undefined without one, null when malformed. */
function filterOf(fq: string | null): SphinxFilter | undefined | null {
  if (fq === null) return undefined;
  const colon = fq.indexOf(':');
  return colon > 0 ? { field: fq.slice(0, colon), value: fq.slice(colon + 1) } : null;
}

/** Listens on an ephemeral loopback port; keep-alive, one SphinxQL connection (its queries run one at a time). */
export async function startSphinxHttp(sphinx: SphinxSystem): Promise<SphinxHttp> {
  const server = http.createServer({ keepAlive: true }, (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const text = url.searchParams.get('q');
    const filter = filterOf(url.searchParams.get('fq'));
    if (url.pathname !== '/search' || !text || filter === null) {
      response.writeHead(404).end();
      return;
    }
    sphinx.faceted(text, TOP, filter).then(
      (sets) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(sets)));
      },
      (error: Error) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(error.message);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
