import { listeningNote } from '../lifecycle/boot-tree.js';
import type { Runtime } from '../lifecycle/runtime.js';
import { RUNTIME_VERSION } from '../paths.js';

/** What a person opens first on each bundled service's address (`/` leads there). */
const LANDING: Record<string, string> = {
  gateway: 'the console',
  search: 'the admin console',
  connector: 'the status page',
};

export interface StartLinks {
  /** `listening`: the address and port really bound (`127.0.0.1:2700`, `0.0.0.0:2700`). */
  services: Array<{ name: string; url: string; landing: string; listening: string }>;
  sample: string | null;
  swaggerUi: string[];
  admin: { user: string; generatedPassword: string | null };
}

/** The addresses worth opening after a start, from the runtime that just started. */
export function startLinks(runtime: Runtime): StartLinks {
  const services = [...runtime.services.keys()].sort().map((name) => {
    // The address bound, not a friendlier `localhost`: whether a service is reachable from other machines shows.
    const { url, listening } = runtime.services.get(name)!.address();
    return { name, url: `${url}/`, landing: LANDING[name] ?? 'the service', listening };
  });
  const search = services.find((s) => s.name === 'search');
  // The connector seeds the site Sample into the search service on first start (not with --no-seed).
  const seeded = runtime.config.runtime.seed && runtime.pluginNames.includes('connector') && search;
  return {
    services,
    sample: seeded ? `${search.url}sn/Sample` : null,
    swaggerUi: services.map((s) => `${s.url}swagger-ui.html`),
    admin: { user: runtime.config.runtime.admin.user, generatedPassword: runtime.generatedAdminPassword },
  };
}

/** A frame around lines, so the one-time password cannot be scrolled past unseen. */
function boxed(lines: string[]): string[] {
  const width = Math.max(...lines.map((l) => l.length));
  return [`┌${'─'.repeat(width + 2)}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${'─'.repeat(width + 2)}┘`];
}

/** The banner printed on a terminal once every service listens. */
export function renderStartBanner(links: StartLinks): string {
  const nameWidth = Math.max(...links.services.map((s) => s.name.length));
  const urlWidth = Math.max(...links.services.map((s) => s.url.length));
  const lines = ['', `  Vela ${RUNTIME_VERSION} is ready`, ''];
  for (const s of links.services)
    lines.push(`  ${s.name.padEnd(nameWidth)}  ${s.url.padEnd(urlWidth)}  ${s.landing}${listeningNote(s)}`);
  lines.push('');
  if (links.services.some((s) => listeningNote(s)))
    lines.push('  Listening on every address: reachable from other machines (services.<name>.host, VELA_HOST).', '');
  if (links.sample) lines.push(`  Try the sample search:  ${links.sample}`);
  lines.push(`  API (Swagger UI):       ${links.swaggerUi.join('  ')}`.trimEnd());
  lines.push('');
  const password = links.admin.generatedPassword;
  const account = password
    ? [
        `Administrator: ${links.admin.user}`,
        `Password:      ${password}`,
        'Generated for this first start and shown only this once: keep it.',
      ]
    : [`Administrator: ${links.admin.user} (password: the one configured or generated at the first start)`];
  lines.push(...boxed(account).map((l) => `  ${l}`));
  lines.push('', '  Stop with Ctrl-C.', '');
  return lines.join('\n');
}
