// Sphinx (Debian's `sphinxsearch`, 2.2.11) as a peer of the relevance benchmark: the corpus written as one
// xmlpipe2 source, indexed by `indexer`, served by a `searchd` this process starts on loopback and stops, and
// queried over SphinxQL. Needs `apt-get install -y sphinxsearch`; `available()` says whether it is there.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SphinxQL } from './relevance-sphinxql.js';
import { FIELD_WEIGHTS, type RankedHit, type RankingSystem, type RelevanceFields } from './relevance-systems.js';
import type { CorpusDocument } from './search-corpus.js';

/** Whether `indexer` and `searchd` are on the PATH. */
export function sphinxAvailable(): boolean {
  try {
    execFileSync('searchd', ['--help'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // searchd --help exits 1 after printing its usage: it ran.
    return (error as { status?: number }).status !== undefined && (error as { code?: string }).code !== 'ENOENT';
  }
}

/**
 * The single-valued facets of the Debian site, kept as string attributes to count them as Vela's answer does (its
 * multi-valued `tags` cannot be: Sphinx 2.2 has no multi-valued strings).
 */
const FACETS = ['section', 'arch', 'priority'] as const;
const FACET_CLAUSE = FACETS.map((name) => `FACET ${name} ORDER BY COUNT(*) DESC LIMIT 100`).join(' ');

/** Only the hits whose string attribute `field` (one of the site's single-valued facets) is `value`. */
export interface SphinxFilter {
  field: string;
  value: string;
}

function attribute(field: string): (typeof FACETS)[number] {
  const known = FACETS.find((name) => name === field);
  if (!known) throw new Error(`not a string attribute of the index: ${field}`);
  return known;
}

/** A SphinxQL string literal. */
const quoted = (value: string) => `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** Letters of XML 1.0 only: a control character in a description would make the indexer refuse the source. */
const xmlText = (text: string) =>
  text
    .replace(/[^\t\n\r\u0020-\ufffd\u{10000}-\u{10ffff}]/gu, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function xmlpipe2(documents: CorpusDocument[], fields: (d: CorpusDocument) => RelevanceFields): string {
  const names = Object.keys(FIELD_WEIGHTS);
  const parts = [
    '<?xml version="1.0" encoding="utf-8"?>\n<sphinx:docset>\n<sphinx:schema>\n',
    ...names.map((name) => `<sphinx:field name="${name}"/>\n`),
    ...FACETS.map((name) => `<sphinx:attr name="${name}" type="string"/>\n`),
    '</sphinx:schema>\n',
  ];
  for (const d of documents) {
    const values = fields(d);
    // Sphinx refuses document id 0: every id is shifted by one.
    parts.push(`<sphinx:document id="${d.id + 1}">`);
    for (const name of names) parts.push(`<${name}>${xmlText(values[name as keyof RelevanceFields])}</${name}>`);
    for (const name of FACETS) parts.push(`<${name}>${xmlText(d[name])}</${name}>`);
    parts.push('</sphinx:document>\n');
  }
  parts.push('</sphinx:docset>\n');
  return parts.join('');
}

/**
 * Words as the other systems read them: ASCII and Latin-1 letters and digits, folded to lower case; `_` and
 * everything else separate words. `dict=keywords` and `min_word_len=1` index every word, as the others do.
 */
function config(dir: string, port: number): string {
  return `source debian
{
  type = xmlpipe2
  xmlpipe_command = cat ${path.join(dir, 'documents.xml')}
}
index debian
{
  source = debian
  path = ${path.join(dir, 'debian')}
  docinfo = extern
  dict = keywords
  min_word_len = 1
  charset_table = 0..9, A..Z->a..z, a..z, U+C0..U+D6->U+E0..U+F6, U+D8..U+DE->U+F8..U+FE, U+DF..U+F6, U+F8..U+FF
}
indexer
{
  mem_limit = 256M
}
searchd
{
  listen = 127.0.0.1:${port}:mysql41
  log = ${path.join(dir, 'searchd.log')}
  pid_file = ${path.join(dir, 'searchd.pid')}
  binlog_path =
  workers = threads
}
`;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Sphinx's default ranker (proximity_bm25: the longest run of query words in order, plus BM25) with the same
 * field weights as the others (FIELD_WEIGHTS).
 */
export class SphinxSystem implements RankingSystem {
  readonly name = 'sphinx';
  indexMs = 0;
  private dir = '';
  private searchd: ChildProcess | null = null;
  private client: SphinxQL | null = null;
  private readonly options = `ranker=proximity_bm25, field_weights=(${Object.entries(FIELD_WEIGHTS)
    .map(([field, weight]) => `${field}=${weight}`)
    .join(', ')})`;

  constructor(private readonly fields: (d: CorpusDocument) => RelevanceFields) {}

  async build(documents: CorpusDocument[]): Promise<void> {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'vela-sphinx-'));
    const port = await freePort();
    const file = path.join(this.dir, 'sphinx.conf');
    writeFileSync(file, config(this.dir, port));
    writeFileSync(path.join(this.dir, 'documents.xml'), xmlpipe2(documents, this.fields));
    const started = performance.now();
    execFileSync('indexer', ['--config', file, '--all', '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
    this.indexMs = Math.round(performance.now() - started);
    this.searchd = spawn('searchd', ['--config', file, '--nodetach'], { stdio: 'ignore' });
    for (let attempt = 0; ; attempt++) {
      try {
        this.client = await SphinxQL.connect(port);
        return;
      } catch (error) {
        if (attempt === 100) throw error;
        await sleep(100);
      }
    }
  }

  async ranked(text: string, limit: number): Promise<RankedHit[]> {
    const [rows] = await this.client!.query(this.statement(text, limit));
    return rows!.map(([id, weight]) => ({ id: Number(id) - 1, score: Number(weight) }));
  }

  /**
   * The same, with the counts of the site's single-valued facets over all hits (as a search answer has them), and
   * only the hits whose `filter` attribute has its value when there is one: one statement, four result sets.
   */
  async faceted(text: string, limit: number, filter?: SphinxFilter): Promise<Array<Array<Array<string | null>>>> {
    return this.client!.query(`${this.statement(text, limit, filter)} ${FACET_CLAUSE}`);
  }

  /** How many documents match (`total_found`, not capped by max_matches as `total` is). */
  async found(text: string, filter?: SphinxFilter): Promise<number> {
    await this.client!.query(this.statement(text, 1, filter));
    const [meta] = await this.client!.query('SHOW META');
    const row = meta?.find(([name]) => name === 'total_found');
    if (!row) throw new Error('SphinxQL: SHOW META has no total_found');
    return Number(row[1]);
  }

  private statement(text: string, limit: number, filter?: SphinxFilter): string {
    if (!/^[\p{L}\p{N} ]+$/u.test(text)) throw new Error(`not a plain word query: ${text}`);
    const where = filter ? ` AND ${attribute(filter.field)}=${quoted(filter.value)}` : '';
    return `SELECT id, WEIGHT() FROM debian WHERE MATCH('${text}')${where} LIMIT ${limit} OPTION ${this.options}`;
  }

  async close(): Promise<void> {
    this.client?.close();
    if (this.searchd && this.searchd.exitCode === null) {
      const exited = new Promise((resolve) => this.searchd!.once('exit', resolve));
      this.searchd.kill('SIGTERM');
      await exited;
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
