import { type ApiRouter, livenessRoute } from 'vela/plugin';
import { API } from './route-context.js';

export function mountStatusRoute(router: ApiRouter): void {
  livenessRoute(router, `${API}/status`, {
    tags: ['cms'],
    summary: 'Liveness of the cms plugin (no authentication)',
    answer: 'the plugin answers',
  });
}
