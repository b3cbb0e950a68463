import type { ApiRouter } from 'vela/plugin';
import { systemInfo } from '../monitoring/system-info.js';
import { API, type ConnectorDomain } from './route-context.js';

export function mountSystemInfoRoute(router: ApiRouter, domain: ConnectorDomain): void {
  router.get(
    `${API}/system-info`,
    {
      access: 'key',
      scope: 'connector',
      tags: ['system'],
      summary: 'Application, Node.js runtime, operating system, memory, heap and disk space',
      responses: { 200: { description: 'the system information record' } },
    },
    async (_req, res) => {
      res.json(await systemInfo(domain.dataDir, domain.host, domain.plugin));
    },
  );
}
