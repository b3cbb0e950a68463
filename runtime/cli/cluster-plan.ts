import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { RuntimeConfig } from '../config/load-config.js';
import { VelaError } from '../errors.js';
import { reachableUrl } from '../http/service-server.js';
import { selectAndOrder } from '../plugins/dependency-order.js';
import { scanLoaderPath } from '../plugins/discover.js';
import type { PluginDescriptor } from '../plugins/manifest.js';

/** What the primary puts in a worker's environment: which slot it fills and what it needs to know. */
export interface WorkerSpec {
  group: string;
  slot: number;
  count: number;
  /** The plugins this group loads (null: every plugin the configuration selects). */
  plugins: string[] | null;
  /**
   * Ports the primary chose for services configured on port 0: workers sharing a port through node:cluster
   * must all ask for the same one, and two services each asking for port 0 would otherwise share one.
   */
  ports: Record<string, number>;
  /** The URL of every service the cluster serves, whichever group serves it. */
  services: Record<string, string>;
  /** A key every service of the cluster accepts, for one worker's calls to another's service. */
  secret: string;
}

export interface ClusterPlan {
  /** Every slot, the groups in start order. */
  specs: WorkerSpec[];
  /** Per group, the groups whose owner must be ready before its own starts (its plugins call theirs). */
  after: Map<string, string[]>;
  services: Record<string, string>;
}

/** A free port on the host, for a service configured on port 0. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

interface Group {
  name: string;
  plugins: string[] | null;
  after: string[];
}

/** One group of every plugin, or one per service with --split-services (dependencies across services refused). */
function groupsOf(ordered: PluginDescriptor[], splitServices: boolean): Group[] {
  if (!splitServices) return [{ name: 'all', plugins: null, after: [] }];
  const serviceOf = new Map(ordered.map((d) => [d.manifest.name, d.manifest.service]));
  const groups = new Map<string, Group>();
  for (const { manifest } of ordered) {
    const group = groups.get(manifest.service) ?? { name: manifest.service, plugins: [], after: [] };
    groups.set(manifest.service, group);
    group.plugins!.push(manifest.name);
    const elsewhere = manifest.dependsOn.filter((name) => serviceOf.get(name) !== manifest.service);
    if (elsewhere.length > 0) {
      throw new VelaError(
        'E_CONFIG',
        `--split-services: the plugins of service "${manifest.service}" depend on ${elsewhere.join(', ')}, which serve another service; they cannot run in processes of their own`,
      );
    }
    // An optional dependency on another service's plugin is reached over HTTP: that service starts first.
    for (const name of manifest.optionalDependencies) {
      const service = serviceOf.get(name);
      if (service && service !== manifest.service && !group.after.includes(service)) group.after.push(service);
    }
  }
  return [...groups.values()];
}

async function plannedPlugins(config: RuntimeConfig): Promise<PluginDescriptor[]> {
  const rt = config.runtime;
  const { plugins: found } = await scanLoaderPath(rt.loaderPath, path.join(rt.dataDir, 'plugin-cache'));
  return selectAndOrder(found, rt.plugins, rt.loaderPath);
}

/** The slots of `vela start --workers N [--split-services]`: N per group, slot 0 of each its owner. */
export async function planCluster(config: RuntimeConfig): Promise<ClusterPlan> {
  const { workers, splitServices } = config.runtime.processes;
  const ordered = await plannedPlugins(config);
  const ports: Record<string, number> = {};
  const services: Record<string, string> = {};
  for (const name of new Set(ordered.map((d) => d.manifest.service))) {
    const service = config.services[name];
    // An unknown service is the worker's start error to report, with the list of known ones.
    if (!service) continue;
    if (service.port === 0) ports[name] = await freePort(service.host);
    services[name] = reachableUrl(service.host, ports[name] ?? service.port);
  }
  const secret = randomBytes(32).toString('hex');
  const groups = groupsOf(ordered, splitServices);
  const specs: WorkerSpec[] = [];
  for (const group of groups)
    for (let slot = 0; slot < workers; slot++)
      specs.push({ group: group.name, slot, count: workers, plugins: group.plugins, ports, services, secret });
  return { specs, after: new Map(groups.map((g) => [g.name, g.after])), services };
}
