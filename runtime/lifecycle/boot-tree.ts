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
  services: Array<{ name: string; url: string; plugins: PluginTiming[] }>;
}

const fmt = (ms: number | undefined) => (ms === undefined ? '-' : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`);

/** The start log's tree (after avvio's prettyPrint): service → plugin, with each phase's time. */
export function renderBootTree(tree: BootTree): string {
  const lines = [`vela started in ${fmt(tree.totalMs)} (runtime migrations ${fmt(tree.runtimeMigrateMs)})`];
  tree.services.forEach((service, i) => {
    const lastService = i === tree.services.length - 1;
    lines.push(`${lastService ? '└─' : '├─'} ${service.name} ${service.url}`);
    service.plugins.forEach((p, j) => {
      const branch = j === service.plugins.length - 1 ? '└─' : '├─';
      const phases = (['register', 'migrate', 'start'] as const).map((phase) => `${phase} ${fmt(p.ms[phase])}`).join(', ');
      const archive = p.origin === 'archive' ? ' [archive]' : '';
      lines.push(`${lastService ? '   ' : '│  '}${branch} ${p.plugin}@${p.version}${archive}  ${phases}`);
    });
  });
  return lines.join('\n');
}
