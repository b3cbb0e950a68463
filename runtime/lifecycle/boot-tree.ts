export type Phase = 'register' | 'migrate' | 'start' | 'stop';

export interface PluginTiming {
  plugin: string;
  version: string;
  service: string;
  origin: 'folder' | 'archive';
  ms: Partial<Record<Phase, number>>;
}

export interface BootTree {
  totalMs: number;
  runtimeMigrateMs: number;
  /** `url`: where this machine reaches the service; `listening`: the address and port really bound. */
  services: Array<{ name: string; url: string; listening: string; plugins: PluginTiming[] }>;
}

const fmt = (ms: number | undefined) => (ms === undefined ? '-' : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`);

/**
 * Said when the bound address is not the URL's: a service open beyond this machine (`0.0.0.0`, `::`) must be visible.
 */
export function listeningNote(service: { url: string; listening: string }): string {
  return service.url.replace(/\/$/, '').endsWith(`//${service.listening}`)
    ? ''
    : ` (listening on ${service.listening})`;
}

/** The start log's tree (after avvio's prettyPrint): service → plugin, with each phase's time. */
export function renderBootTree(tree: BootTree): string {
  const lines = [`vela started in ${fmt(tree.totalMs)} (runtime migrations ${fmt(tree.runtimeMigrateMs)})`];
  tree.services.forEach((service, i) => {
    const lastService = i === tree.services.length - 1;
    lines.push(`${lastService ? '└─' : '├─'} ${service.name} ${service.url}${listeningNote(service)}`);
    service.plugins.forEach((p, j) => {
      const branch = j === service.plugins.length - 1 ? '└─' : '├─';
      const phases = (['register', 'migrate', 'start'] as const)
        .map((phase) => `${phase} ${fmt(p.ms[phase])}`)
        .join(', ');
      const archive = p.origin === 'archive' ? ' [archive]' : '';
      lines.push(`${lastService ? '   ' : '│  '}${branch} ${p.plugin}@${p.version}${archive}  ${phases}`);
    });
  });
  return lines.join('\n');
}
