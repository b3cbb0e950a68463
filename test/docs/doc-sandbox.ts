import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../runtime/paths.js';
import { type ChildRuntime, childEnv, startChildRuntime } from '../../runtime/testing/child-runtime.js';
import { eventually } from '../../runtime/testing/eventually.js';

/** What a document's examples need running around them. */
export interface DocSetup {
  /** Plugins to start (`--plugins`); the runtime is not started when no example of the document runs. */
  plugins: string[];
  /** The administrator password the document uses (`-u admin:<password>`). */
  password: string;
  /** Seed the sample (the `Sample` site and the connector's `sample` source) and wait for its first run. */
  seed?: boolean;
  /** Start the example upstream (scripts/example-upstream.mjs) the gateway examples proxy to. */
  upstream?: boolean;
  /** Configuration the document has the reader start with (its `--config` file), beside the test's listeners. */
  config?: Record<string, unknown>;
}

/** The ports the documents name, by what listens on them. */
const DOC_PORTS: Record<string, string> = { 2700: 'search', 2702: 'gateway', 30130: 'connector', 8081: 'upstream' };

/** The checkout's entries a document's commands may use (`node bin/vela.mjs`, `docs/examples/...`). */
const CHECKOUT = [
  'bin',
  'config',
  'docs',
  'node_modules',
  'package.json',
  'packages',
  'plugins',
  'runtime',
  'scripts',
  'tsconfig.json',
];

/**
 * A stand-in for the user's clone: a temporary folder whose entries link to the checkout, so commands that
 * write (`vela pack --out dist`, a data folder) write there and the working tree stays as it was.
 */
export class DocSandbox {
  readonly work = mkdtempSync(path.join(os.tmpdir(), 'vela-docs-'));
  readonly scratch = path.join(this.work, '.docs-test');
  private runtime: ChildRuntime | null = null;
  private upstream: ChildProcess | null = null;
  private readonly ports = new Map<string, number>();

  constructor() {
    for (const entry of CHECKOUT) symlinkSync(path.join(packageRoot, entry), path.join(this.work, entry));
    for (const dir of [this.scratch, path.join(this.work, 'tmp'), path.join(this.work, 'home')])
      mkdirSync(dir, { recursive: true });
    // curl draws its progress meter only when its output is not a terminal; the documents show what a terminal
    // shows, and here the output goes to a file. Errors are still printed.
    writeFileSync(path.join(this.work, 'home', '.curlrc'), '--no-progress-meter\n');
  }

  async start(setup: DocSetup): Promise<void> {
    if (setup.upstream) this.ports.set('upstream', await this.startUpstream());
    const config = path.join(this.scratch, 'config.json');
    const services = Object.fromEntries(
      ['gateway', 'search', 'connector'].map((s) => [s, { port: 0, host: '127.0.0.1' }]),
    );
    writeFileSync(config, JSON.stringify({ ...setup.config, services }));
    const args = [
      '--config',
      config,
      '--data-dir',
      // Where `npm start` puts it: ./data in the clone (the documents show paths in it).
      path.join(this.work, 'data'),
      '--plugins',
      setup.plugins.join(','),
      ...(setup.seed ? [] : ['--no-seed']),
    ];
    const runtime = await startChildRuntime(args, childEnv({ VELA_ADMIN_PASSWORD: setup.password }), this.work);
    this.runtime = runtime;
    for (const [name, url] of Object.entries(runtime.urls)) this.ports.set(name, Number(new URL(url).port));
    // The documents start from a finished sample: a run still going would answer 409 to their own runs.
    if (setup.seed)
      await eventually(
        () => /"source":"sample".*"msg":"indexing run ended"/.test(runtime.output()),
        'the sample run',
        120_000,
        250,
      );
  }

  private startUpstream(): Promise<number> {
    const child = spawn(process.execPath, [path.join(packageRoot, 'scripts', 'example-upstream.mjs')], {
      env: { ...process.env, PORT: '0' },
    });
    this.upstream = child;
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (port) resolve(Number(port[1]));
      });
      child.on('exit', (code) => reject(new Error(`the example upstream exited with ${code}: ${out}`)));
    });
  }

  /**
   * A command or an output of the document, for this sandbox: the documented ports become the test's, and
   * the documented folders (the clone at /srv/vela, /tmp, /opt/vela) folders of the sandbox.
   */
  rewrite(text: string): string {
    return (
      text
        .replace(/\b(localhost|127\.0\.0\.1):(2700|2702|30130|8081)\b/g, (whole, host: string, port: string) => {
          const actual = this.ports.get(DOC_PORTS[port] ?? '');
          return actual === undefined ? whole : `${host}:${actual}`;
        })
        // One pass: the sandbox itself lives under /tmp, so a second replace would rewrite what the first wrote.
        .replace(/\/srv\/vela(?=\/|\b)|(?<![\w.-])\/(tmp|opt)\//g, (_whole, folder?: string) =>
          folder ? `${this.work}/${folder}/` : this.work,
        )
    );
  }

  /** The environment of the document's shell: a user's terminal, with nothing of the runtime's. */
  shellEnv(): NodeJS.ProcessEnv {
    return {
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: path.join(this.work, 'home'),
      TMPDIR: path.join(this.work, 'tmp'),
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
      // npm's "new version available" notice depends on the day, not on the document.
      npm_config_update_notifier: 'false',
    };
  }

  async close(): Promise<void> {
    await this.runtime?.stop();
    this.upstream?.kill();
    rmSync(this.work, { recursive: true, force: true });
  }
}
