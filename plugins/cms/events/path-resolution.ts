import type { CmsSource, PathAttribute } from '../api.js';
import { cmsErrors } from '../errors.js';
import { contentPath, MAX_PATH } from '../schemas/common.js';
import { within } from '../sources/cms-source.js';

/**
 * The content paths a path list names: as given (attribute ID), or mapped back from delivery URLs (attribute
 * URL): the source's delivery URL prefix (or its endpoint) taken off, else the URL's own path, then the
 * `.html` a page is served with. A path that is not well formed is a 400 naming its member; paths outside the
 * source's root path are left out (a repository's webhook reports all of its content).
 */
export function contentPathsOf(
  source: CmsSource,
  paths: readonly string[],
  attribute: PathAttribute,
): { inside: string[]; outside: string[] } {
  const problems: string[] = [];
  const resolved = paths.map((entry, i) => {
    const path = attribute === 'URL' ? pathOfUrl(source, entry) : entry;
    if (path === null)
      problems.push(
        `body.paths[${i}] must be an http or https URL when attribute is URL, got ${JSON.stringify(entry.slice(0, 200))}`,
      );
    else if (path.length > MAX_PATH || !contentPath.test(path))
      problems.push(
        `body.paths[${i}] must be ${attribute === 'URL' ? 'a URL whose path is ' : ''}a content path (/content/...: no empty, "." or ".." segments, at most ${MAX_PATH} characters), got ${JSON.stringify(entry.slice(0, 200))}`,
      );
    return path;
  });
  if (problems.length > 0) throw cmsErrors.invalid(problems);
  const unique = [...new Set(resolved as string[])];
  return {
    inside: unique.filter((p) => within(p, source.rootPath)),
    outside: unique.filter((p) => !within(p, source.rootPath)),
  };
}

function pathOfUrl(source: CmsSource, value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const bare = `${url.origin}${url.pathname}`;
  const prefix = [source.deliveryUrlPrefix, source.endpoint].find(
    (p): p is string => !!p && bare.startsWith(p) && /^(\/|$)/.test(bare.slice(p.length)),
  );
  const rest = prefix ? bare.slice(prefix.length) || '/' : url.pathname;
  let path: string;
  try {
    path = decodeURIComponent(rest);
  } catch {
    return null;
  }
  return path.replace(/\.html?$/, '');
}
