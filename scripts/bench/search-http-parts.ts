// Where a search over HTTP spends its time, in steady state: the same 500 faceted queries on the Debian
// corpus, answered in turn, round after round, by
//   - the search service in-process (no HTTP, no serialisation),
//   - a bare node:http server that sends prepared bytes (the floor of search-service.ts),
//   - a bare node:http server that sends prepared bytes after running the search (the search's share in a server),
//   - a bare node:http server that runs the search and serialises its answer (everything but express),
//   - Vela's own route (express, access, CORS, security headers),
// all in this process, with one keep-alive client. The differences between lines are the parts.
//
//   node --import tsx scripts/bench/search-http-parts.ts [corpus.jsonl.gz] [--rounds N]
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SiteSearch } from '../../plugins/search/api.js';
import { loadConfig } from '../../runtime/config/load-config.js';
import { sendJson } from '../../runtime/http/json-answer.js';
import { Runtime } from '../../runtime/lifecycle/runtime.js';
import { packageRoot } from '../../runtime/paths.js';
import { debianSiteFields, loadCorpus, makeQueries } from './search-corpus.js';
import { writeSearchSnapshot } from './search-snapshot.js';
import { percentile } from './stats.js';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 4;
const corpusFile = path.resolve(
  args.find((a, i) => !a.startsWith('--') && i !== roundsAt + 1) ??
    path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'),
);

const round3 = (n: number) => Math.round(n * 1000) / 1000;

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function main(): Promise<void> {
  console.log(
    JSON.stringify({
      bench: 'search-http-parts',
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
    }),
  );
  const documents = loadCorpus(corpusFile);
  const queryStrings = makeQueries(documents, 500, 20261122).map(
    (q) =>
      `q=${encodeURIComponent(q.text)}&_setlocale=en_US&fq[]=${q.filter.field}:${encodeURIComponent(q.filter.value)}`,
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-bench-'));
  const admin = { user: 'admin', password: 'bench-password' };
  const runtime = new Runtime({
    config: loadConfig({
      env: {},
      overrides: {
        // Every page's documents stay cached: this compares the layers, not the store's reads. Searches are
        // recorded by the search-metrics plugin, as deployed by default.
        runtime: { dataDir, logLevel: 'warn', admin, plugins: ['search', 'search-metrics'] },
        // The answer cache off: each round searches again (search-service.ts measures answers from the cache).
        plugins: { search: { pageCache: { documents: documents.length }, answerCache: { megabytes: 0 } } },
        services: { search: { port: 0, host: '127.0.0.1' } },
      },
    }),
  });
  await runtime.start();
  const servers: http.Server[] = [];
  try {
    const vela = runtime.url('search');
    const headers = {
      authorization: `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const site = {
      name: 'Debian',
      fields: debianSiteFields('body'),
      defaultTitleField: 'title',
      defaultTextField: 'body',
      defaultDescriptionField: 'body',
    };
    if (
      (
        await fetch(`${vela}/api/sn`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ...site, defaultURLField: null }),
        })
      ).status !== 201
    )
      throw new Error('site');
    for (let from = 0; from < documents.length; from += 10_000) {
      const turingDocuments = documents.slice(from, from + 10_000).map((d) => ({
        locale: 'en_US',
        turSNJobAction: 'CREATE',
        siteNames: ['Debian'],
        attributes: { ...d, id: String(d.id) },
      }));
      const last = from + 10_000 >= documents.length;
      const r = await fetch(`${vela}/api/sn/import${last ? '?wait=true' : ''}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ turingDocuments }),
      });
      if (r.status !== 200) throw new Error(`import: ${await r.text()}`);
    }
    await writeSearchSnapshot(runtime);
    const search = runtime.resolve<SiteSearch>('search.service');
    const prepared = new Map<string, Buffer>();
    for (const q of queryStrings)
      prepared.set(q, Buffer.from(await (await fetch(`${vela}/api/sn/Debian/search?${q}`)).arrayBuffer()));
    const queryOf = (req: http.IncomingMessage) => (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1);
    const sendPrepared = (res: http.ServerResponse, body: Buffer) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    };
    const floor = await listen((req, res) => sendPrepared(res, prepared.get(queryOf(req))!));
    const searchThenPrepared = await listen(async (req, res) => {
      await search.search('Debian', queryOf(req));
      sendPrepared(res, prepared.get(queryOf(req))!);
    });
    const bare = await listen(async (req, res) => sendJson(res, 200, await search.search('Debian', queryOf(req))));
    servers.push(floor.server, searchThenPrepared.server, bare.server);
    const overHttp = (base: string) => async (q: string) => {
      await (await fetch(`${base}/api/sn/Debian/search?${q}`)).arrayBuffer();
    };
    const systems: Array<[string, (q: string) => Promise<unknown>]> = [
      ['search service in-process', (q) => search.search('Debian', q)],
      ['http floor (prepared bytes)', overHttp(floor.base)],
      ['node:http, search, prepared bytes', overHttp(searchThenPrepared.base)],
      ['node:http, search, JSON.stringify', overHttp(bare.base)],
      ['vela route (express)', overHttp(vela)],
    ];
    const times = new Map<string, number[][]>(systems.map(([name]) => [name, []]));
    for (const [, run] of systems) for (const q of queryStrings.slice(0, 100)) await run(q);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of systems) {
        const took: number[] = [];
        for (const q of queryStrings) {
          const t0 = performance.now();
          await run(q);
          took.push(performance.now() - t0);
        }
        times.get(name)!.push(took.sort((a, b) => a - b));
      }
    }
    // Each system's median round by p50.
    const medians = new Map<string, { p50Ms: number; p99Ms: number }>();
    for (const [name, rounds] of times) {
      const byP50 = rounds
        .map((r) => ({ p50Ms: round3(percentile(r, 50)), p99Ms: round3(percentile(r, 99)) }))
        .sort((a, b) => a.p50Ms - b.p50Ms);
      const median = byP50[Math.floor(byP50.length / 2)]!;
      medians.set(name, median);
      console.log(JSON.stringify({ system: name, ...median, roundsP50Ms: byP50.map((r) => r.p50Ms) }));
    }
    const p50 = (name: string) => medians.get(name)!.p50Ms;
    const floorP50 = p50('http floor (prepared bytes)');
    console.log(
      JSON.stringify({
        parts: {
          searchInAServerMs: round3(p50('node:http, search, prepared bytes') - floorP50),
          serialisationMs: round3(p50('node:http, search, JSON.stringify') - p50('node:http, search, prepared bytes')),
          expressRouteMs: round3(p50('vela route (express)') - p50('node:http, search, JSON.stringify')),
        },
        ratio: { 'vela HTTP p50 / http floor p50': round3(p50('vela route (express)') / floorP50) },
      }),
    );
  } finally {
    for (const server of servers) server.close();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
