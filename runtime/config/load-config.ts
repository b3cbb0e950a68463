import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bootErrors } from '../errors.js';
import { packageRoot } from '../paths.js';
import { jsonSyntaxProblem } from '../secret-values.js';
import runtimeConfigSchema from './runtime-config.schema.json' with { type: 'json' };
import { type JsonSchema, validateAgainst } from './schema-validation.js';

export interface CorsConfig {
  /** Origins that may call public routes, without credentials ("*": any). */
  origins: string[];
  /** Origins trusted on every route, key and admin ones included, with credentials. */
  credentialedOrigins: string[];
  methods: string[];
  headers: string[];
  maxAgeSeconds: number;
}

export interface ServiceConfig {
  port: number;
  host: string;
  bodyLimit: string;
  trustProxy: boolean;
  /** Where clients reach the service; null: its listening address. */
  publicUrl: string | null;
  cors: CorsConfig;
}

/** Failures allowed within `windowSeconds` before 429; see docs/SECURITY.md. */
export interface AttemptLimits {
  /** One user name from one address. */
  perPair: number;
  /** Any user names from one address (password spraying, throwaway names). */
  perAddress: number;
  /** One user name from addresses it has not signed in from lately (distributed guessing). */
  perUser: number;
  windowSeconds: number;
}

export interface RuntimeConfig {
  runtime: {
    dataDir: string;
    loaderPath: string[];
    plugins: string[] | null;
    logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
    /** auto: pretty lines on a terminal, JSON lines anywhere else. */
    logFormat: 'auto' | 'json' | 'pretty';
    /** Plugins may seed sample data on first start (the connector's sample source). */
    seed: boolean;
    database: { url: string | null; pool: { min: number; max: number } };
    admin: { user: string; password: string | null };
    auth: { passwordAttempts: AttemptLimits };
    network: { allowHosts: string[] };
    phaseTimeoutMs: number;
    shutdownTimeoutMs: number;
    workers: { minThreads: number; maxThreads: number; idleTimeoutMs: number; recycleAboveMb: number };
    /** Worker processes per service, and whether each service gets its own (runtime/cli/cluster.ts). */
    processes: { workers: number; splitServices: boolean };
  };
  services: Record<string, ServiceConfig>;
  plugins: Record<string, Record<string, unknown>>;
}

/** CLI flags that override configuration (the last and strongest layer). */
export interface ConfigFlags {
  configFile?: string;
  loaderPath?: string[];
  plugins?: string[];
  dataDir?: string;
  /** false: --no-seed. */
  seed?: boolean;
  /** --log-format json|pretty|auto. */
  logFormat?: string;
  /** --workers N */
  workers?: number;
  /** --split-services */
  splitServices?: boolean;
}

export interface ConfigSources {
  flags?: ConfigFlags;
  env?: NodeJS.ProcessEnv;
  /** Applied after the config file and before environment and flags; the test helper uses it. */
  overrides?: DeepPartial<RuntimeConfig>;
  cwd?: string;
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

type Layer = Record<string, unknown>;

/** Environment variables an operator can set, and where each lands in the configuration. */
export const environmentVariables: ReadonlyArray<{ name: string; path: string; kind: 'string' | 'port' | 'list' }> = [
  { name: 'VELA_DATA_DIR', path: 'runtime.dataDir', kind: 'string' },
  { name: 'VELA_LOADER_PATH', path: 'runtime.loaderPath', kind: 'list' },
  { name: 'VELA_PLUGINS', path: 'runtime.plugins', kind: 'list' },
  { name: 'VELA_LOG_LEVEL', path: 'runtime.logLevel', kind: 'string' },
  { name: 'VELA_LOG_FORMAT', path: 'runtime.logFormat', kind: 'string' },
  { name: 'DATABASE_URL', path: 'runtime.database.url', kind: 'string' },
  { name: 'VELA_ADMIN_USER', path: 'runtime.admin.user', kind: 'string' },
  { name: 'VELA_ADMIN_PASSWORD', path: 'runtime.admin.password', kind: 'string' },
  { name: 'VELA_GATEWAY_PORT', path: 'services.gateway.port', kind: 'port' },
  { name: 'VELA_SEARCH_PORT', path: 'services.search.port', kind: 'port' },
  { name: 'VELA_CONNECTOR_PORT', path: 'services.connector.port', kind: 'port' },
  { name: 'VELA_GATEWAY_PUBLIC_URL', path: 'services.gateway.publicUrl', kind: 'string' },
  { name: 'VELA_SEARCH_PUBLIC_URL', path: 'services.search.publicUrl', kind: 'string' },
  { name: 'VELA_CONNECTOR_PUBLIC_URL', path: 'services.connector.publicUrl', kind: 'string' },
];

/** Sets `services.<name>.host` of every configured service: one switch to open them all (a container). */
export const HOST_VARIABLE = 'VELA_HOST';

/**
 * The merged layers with every service's host set to `host`, when the variable is set (an empty one counts as unset).
 */
function openedTo(merged: Layer, host: string | undefined): Layer {
  if (host === undefined || host === '' || !isPlainObject(merged.services)) return merged;
  const services = Object.fromEntries(
    Object.entries(merged.services).map(([name, service]) => [
      name,
      isPlainObject(service) ? { ...service, host } : service,
    ]),
  );
  return { ...merged, services };
}

export const defaultConfigFile = path.join(packageRoot, 'config', 'default.json');

/**
 * Layers, weakest first: config/default.json, --config FILE, test overrides, environment, flags.
 * Relative paths resolve against where they were written: the package for the default loader path,
 * the file's folder for a config file, the working directory for the default data dir, environment
 * and flags.
 */
export function loadConfig(sources: ConfigSources = {}): RuntimeConfig {
  const cwd = sources.cwd ?? process.cwd();
  // The bundled plugins are found from any working directory; the data dir is the operator's ./data.
  const layers: Layer[] = [resolvePaths(readJsonFile(defaultConfigFile), packageRoot, cwd)];
  if (sources.flags?.configFile) {
    const file = path.resolve(cwd, sources.flags.configFile);
    layers.push(resolvePaths(readJsonFile(file), path.dirname(file)));
  }
  if (sources.overrides) layers.push(resolvePaths(sources.overrides as Layer, cwd));
  const env = sources.env ?? process.env;
  layers.push(resolvePaths(fromEnvironment(env), cwd));
  const flags = fromFlags(sources.flags ?? {});

  const merged = deepMerge(
    openedTo(
      layers.reduce<Layer>((acc, layer) => deepMerge(acc, layer), {}),
      env[HOST_VARIABLE],
    ),
    resolvePaths(flags, cwd),
  );
  const result = validateAgainst<RuntimeConfig>(runtimeConfigSchema as JsonSchema, merged, { applyDefaults: true });
  if (!result.valid) {
    throw bootErrors.configInvalid(
      'runtime',
      result.problems.map((problem) => namingVariable(problem, env, flags)),
    );
  }
  return result.value;
}

/**
 * A problem with a member whose value came from an environment variable names the variable first: the
 * operator who typed `VELA_ADMIN_PASSWORD=short` has no `runtime.admin.password` in any file to look for.
 */
function namingVariable(problem: string, env: NodeJS.ProcessEnv, flags: Layer): string {
  for (const variable of environmentVariables) {
    if (env[variable.name] === undefined || env[variable.name] === '' || hasPath(flags, variable.path)) continue;
    const rest = problem.startsWith(variable.path) ? problem.slice(variable.path.length) : null;
    // The member itself or one inside it (`runtime.plugins[0]`), not a longer name sharing its start.
    if (rest === null || !/^([ .[:]|$)/.test(rest)) continue;
    const member = /^\S*/.exec(rest)![0].replace(/:$/, '');
    return `${variable.name} (${variable.path}${member})${rest.slice(member.length)}`;
  }
  return problem;
}

function hasPath(layer: Layer, dotted: string): boolean {
  let node: unknown = layer;
  for (const key of dotted.split('.')) {
    if (!isPlainObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

function readJsonFile(file: string): Layer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw bootErrors.configFile(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new Error('the file must hold one JSON object');
    return value as Layer;
  } catch (error) {
    throw bootErrors.configFile(file, `is not valid JSON: ${jsonSyntaxProblem(error as Error, text)}`);
  }
}

function fromEnvironment(env: NodeJS.ProcessEnv): Layer {
  const layer: Layer = {};
  for (const variable of environmentVariables) {
    const raw = env[variable.name];
    if (raw === undefined || raw === '') continue;
    setPath(layer, variable.path, parseEnvValue(variable, raw));
  }
  return layer;
}

function parseEnvValue({ name, path: member, kind }: (typeof environmentVariables)[number], raw: string): unknown {
  if (kind === 'list')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (kind === 'port') {
    const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(port >= 0 && port <= 65535))
      throw bootErrors.configInvalid('environment', [
        `${name} (${member}) must be a port number from 0 to 65535, got ${JSON.stringify(raw)}`,
      ]);
    return port;
  }
  return raw;
}

function fromFlags(flags: ConfigFlags): Layer {
  const layer: Layer = {};
  if (flags.loaderPath) setPath(layer, 'runtime.loaderPath', flags.loaderPath);
  if (flags.plugins) setPath(layer, 'runtime.plugins', flags.plugins);
  if (flags.dataDir) setPath(layer, 'runtime.dataDir', flags.dataDir);
  if (flags.seed === false) setPath(layer, 'runtime.seed', false);
  if (flags.logFormat) setPath(layer, 'runtime.logFormat', flags.logFormat);
  if (flags.workers !== undefined) setPath(layer, 'runtime.processes.workers', flags.workers);
  if (flags.splitServices) setPath(layer, 'runtime.processes.splitServices', true);
  return layer;
}

function resolvePaths(layer: Layer, base: string, dataBase = base): Layer {
  const runtime = layer.runtime as Record<string, unknown> | undefined;
  if (!runtime) return layer;
  const copy = { ...runtime };
  if (typeof copy.dataDir === 'string') copy.dataDir = path.resolve(dataBase, copy.dataDir);
  if (Array.isArray(copy.loaderPath))
    copy.loaderPath = copy.loaderPath.map((p) => (typeof p === 'string' ? path.resolve(base, p) : p));
  return { ...layer, runtime: copy };
}

function setPath(target: Layer, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Layer;
  }
  node[keys[keys.length - 1]!] = value;
}

function isPlainObject(value: unknown): value is Layer {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge member by member; arrays and scalars from the stronger layer replace the weaker one. */
export function deepMerge(base: Layer, over: Layer): Layer {
  const out: Layer = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key] as Layer, value) : value;
  }
  return out;
}
