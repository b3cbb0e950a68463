import type { ContentType } from '../api.js';
import type { SlingNode } from './sling-client.js';

export const PAGE: ContentType = 'cq:Page';
export const ASSET: ContentType = 'dam:Asset';

export function primaryType(node: SlingNode): string | undefined {
  const value = node['jcr:primaryType'];
  return typeof value === 'string' ? value : undefined;
}

/** A node's child nodes: objects with a primary type, but not its content or the repository's own (jcr:, rep:, cq:). */
export function childNodes(node: SlingNode): Array<[name: string, child: SlingNode]> {
  return Object.entries(node).filter(
    (entry): entry is [string, SlingNode] =>
      entry[1] !== null &&
      typeof entry[1] === 'object' &&
      !Array.isArray(entry[1]) &&
      !/^(jcr|rep|cq):/.test(entry[0]) &&
      !!primaryType(entry[1] as SlingNode),
  );
}

export function stringOf(node: SlingNode | undefined, name: string): string | undefined {
  const value = node?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A multi-valued property (tags) as strings; a single value counts as one. */
export function stringsOf(node: SlingNode | undefined, name: string): string[] {
  const value = node?.[name];
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

export function childNode(node: SlingNode | undefined, name: string): SlingNode | undefined {
  const value = node?.[name];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SlingNode) : undefined;
}

export function joinPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}
