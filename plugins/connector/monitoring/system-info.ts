import { statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import type { RuntimeInfo } from 'vela/plugin';

interface Space {
  total: number;
  used: number;
  free: number;
}

export interface SystemInfo {
  application: { name: string; version: string; runtimeVersion: string; plugin: string; pluginVersion: string };
  runtime: {
    name: string;
    version: string;
    vendor: string;
    v8: string;
    pid: number;
    uptimeSeconds: number;
    execPath: string;
    arch: string;
    platform: string;
    versions: Record<string, string | undefined>;
  };
  os: {
    name: string;
    version: string;
    release: string;
    arch: string;
    hostname: string;
    cpus: number;
    loadAverage: number[];
  };
  memory: { physical: Space; heap: Space & { limit: number }; rss: number };
  disk: Space & { path: string };
}

/** The Node equivalent of the original's Java, JVM heap and disk report. Disk: the volume of the data folder. */
export async function systemInfo(
  dataDir: string,
  host: RuntimeInfo,
  plugin: { name: string; version: string },
): Promise<SystemInfo> {
  const heap = v8.getHeapStatistics();
  const stats = await statfs(path.resolve(dataDir));
  const diskTotal = stats.blocks * stats.bsize;
  const diskFree = stats.bavail * stats.bsize;
  const totalMem = os.totalmem();
  const freeMem = os.freemem();
  return {
    application: {
      name: host.name,
      version: host.version,
      runtimeVersion: host.version,
      plugin: plugin.name,
      pluginVersion: plugin.version,
    },
    runtime: {
      name: 'Node.js',
      version: process.version,
      vendor: 'OpenJS Foundation',
      v8: process.versions.v8,
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
      execPath: process.execPath,
      arch: process.arch,
      platform: process.platform,
      versions: {
        node: process.versions.node,
        v8: process.versions.v8,
        uv: process.versions.uv,
        openssl: process.versions.openssl,
      },
    },
    os: {
      name: os.type(),
      version: os.version(),
      release: os.release(),
      arch: os.arch(),
      hostname: os.hostname(),
      cpus: os.availableParallelism(),
      loadAverage: os.loadavg(),
    },
    memory: {
      physical: { total: totalMem, used: totalMem - freeMem, free: freeMem },
      heap: {
        total: heap.total_heap_size,
        used: heap.used_heap_size,
        free: heap.total_heap_size - heap.used_heap_size,
        limit: heap.heap_size_limit,
      },
      rss: process.memoryUsage.rss(),
    },
    disk: {
      path: path.resolve(dataDir),
      total: diskTotal,
      used: diskTotal - stats.bfree * stats.bsize,
      free: diskFree,
    },
  };
}
