import type { ApiRouter, JsonSchema } from 'vela/plugin';
import { systemInfo } from '../monitoring/system-info.js';
import { API, type ConnectorDomain } from './route-context.js';

const string: JsonSchema = { type: 'string' };
const integer: JsonSchema = { type: 'integer' };
const space = { type: 'object', description: 'bytes', properties: { total: integer, used: integer, free: integer } };
const object = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  description,
  properties,
});
const systemInfoSchema = object({
  application: object({ name: string, version: string, runtimeVersion: string, plugin: string, pluginVersion: string }),
  runtime: object({
    name: string,
    version: string,
    vendor: string,
    v8: string,
    pid: integer,
    uptimeSeconds: integer,
    execPath: string,
    arch: string,
    platform: string,
    versions: { type: 'object', additionalProperties: string },
  }),
  os: object({
    name: string,
    version: string,
    release: string,
    arch: string,
    hostname: string,
    cpus: integer,
    loadAverage: { type: 'array', items: { type: 'number' } },
  }),
  memory: object(
    { physical: space, heap: { ...space, properties: { ...space.properties, limit: integer } }, rss: integer },
    'bytes',
  ),
  disk: {
    ...space,
    description: 'the volume of the data folder, in bytes',
    properties: { ...space.properties, path: string },
  },
});

export function mountSystemInfoRoute(router: ApiRouter, domain: ConnectorDomain): void {
  router.get(
    `${API}/system-info`,
    {
      access: 'key',
      scope: 'connector',
      tags: ['system'],
      summary: 'Application, Node.js runtime, operating system, memory, heap and disk space',
      responses: { 200: { description: 'the system information record', schema: systemInfoSchema } },
    },
    async (_req, res) => {
      res.json(await systemInfo(domain.dataDir, domain.host, domain.plugin));
    },
  );
}
