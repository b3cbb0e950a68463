import type { TestRuntime } from './test-runtime.js';

/** What the tests read of an OpenAPI document: each path's operations with their tags and security, and its tags. */
export interface ApiDocument {
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
  tags?: Array<{ name: string }>;
}

/** The OpenAPI document a service of the runtime describes itself with (`/v3/api-docs`). */
export async function apiDocument(vela: TestRuntime, service: string): Promise<ApiDocument> {
  return (await (await vela.fetch(service, '/v3/api-docs')).json()) as ApiDocument;
}

/** The paths of `document` that `ownPath` picks (a plugin's), sorted. */
export function describedPaths(document: ApiDocument, ownPath: (path: string) => boolean): string[] {
  return Object.keys(document.paths).filter(ownPath).sort();
}

/**
 * What `document` still describes of a plugin the runtime runs without: the paths `ownPath` picks, the operations
 * tagged `tag`, and `tag` in the document's list of tags. Empty when the plugin left no trace.
 */
export function pluginTraces(document: ApiDocument, ownPath: (path: string) => boolean, tag: string): string[] {
  const traces = describedPaths(document, ownPath).map((path) => `the path ${path}`);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations))
      if (operation.tags?.includes(tag)) traces.push(`${method.toUpperCase()} ${path}, tagged ${tag}`);
  }
  if (document.tags?.some((listed) => listed.name === tag)) traces.push(`the tag ${tag}`);
  return traces;
}
