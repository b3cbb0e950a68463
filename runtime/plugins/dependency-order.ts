import { bootErrors } from '../errors.js';
import type { PluginDescriptor } from './manifest.js';

/**
 * The plugins to load, in start order: the ones asked for (all when `wanted` is null) plus their
 * hard dependencies, each after everything it depends on. Optional dependencies order the start
 * when present and are never pulled in.
 */
export function selectAndOrder(
  found: PluginDescriptor[],
  wanted: string[] | null,
  loaderPath: string[],
): PluginDescriptor[] {
  const byName = new Map(found.map((d) => [d.manifest.name, d]));
  const selected = new Map<string, PluginDescriptor>();

  const include = (name: string, neededBy?: string) => {
    if (selected.has(name)) return;
    const descriptor = byName.get(name);
    if (!descriptor) {
      throw neededBy
        ? bootErrors.pluginMissing(name, neededBy)
        : bootErrors.pluginNotFound(name, loaderPath.join(', '));
    }
    selected.set(name, descriptor);
    for (const dep of descriptor.manifest.dependsOn) include(dep, name);
  };
  for (const name of wanted ?? [...byName.keys()].sort()) include(name);

  const ordered: PluginDescriptor[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, stack: string[]) => {
    const mark = state.get(name);
    if (mark === 'done') return;
    if (mark === 'visiting') throw bootErrors.dependencyCycle([...stack.slice(stack.indexOf(name)), name]);
    state.set(name, 'visiting');
    const { manifest } = selected.get(name)!;
    const deps = [...manifest.dependsOn, ...manifest.optionalDependencies.filter((d) => selected.has(d))];
    for (const dep of deps) visit(dep, [...stack, name]);
    state.set(name, 'done');
    ordered.push(selected.get(name)!);
  };
  for (const name of [...selected.keys()].sort()) visit(name, []);
  return ordered;
}
