import type { ContentType } from '../api.js';
import { ASSET, childNodes, joinPath, primaryType } from './content-node.js';
import type { SlingClient } from './sling-client.js';

/** A content node found by the walk: its path and primary type. */
export interface FoundContent {
  path: string;
  type: ContentType;
}

/** Deeper than any real content tree: a repository that answers cycles (links) cannot keep the walk going. */
const MAX_DEPTH = 100;

/**
 * Every node of the given types at or below `path`, depth first, one `.1.json` rendering per level (the
 * children come with their own properties, so their types are known without another request). Assets have no
 * content nodes below them, so the walk does not enter them. A path the repository does not have yields nothing.
 */
export async function* walkContent(
  client: SlingClient,
  path: string,
  types: readonly ContentType[],
  depth = 0,
): AsyncGenerator<FoundContent> {
  const node = await client.node(path, 1);
  if (!node) return;
  const type = primaryType(node);
  if (depth === 0 && type && (types as readonly string[]).includes(type)) yield { path, type: type as ContentType };
  if (type === ASSET || depth >= MAX_DEPTH) return;
  for (const [name, child] of childNodes(node)) {
    const childPath = joinPath(path, name);
    const childType = primaryType(child)!;
    if ((types as readonly string[]).includes(childType)) yield { path: childPath, type: childType as ContentType };
    if (childType !== ASSET) yield* walkContent(client, childPath, types, depth + 1);
  }
}
