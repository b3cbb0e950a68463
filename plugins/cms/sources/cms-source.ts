import type { CmsSource, Environment, FieldMapping } from '../api.js';

export type { CmsSource, ContentType, Environment, FieldMapping } from '../api.js';

/** What a client sends to create or replace a source (the password only when it is set or changed). */
export type CmsSourceInput = Omit<CmsSource, 'id' | 'passwordSet' | 'created' | 'modified'> & { password?: string };

/** Where each content property goes unless the source says otherwise: the search service's usual fields. */
export const DEFAULT_FIELDS: FieldMapping = {
  title: 'title',
  description: 'abstract',
  text: 'text',
  tags: 'tags',
  lastModified: 'modification_date',
  template: 'template',
};

/** The empty source of GET /source/structure: a model for a new one. */
export function emptySource(): Omit<CmsSource, 'passwordSet' | 'created' | 'modified'> & { password: string } {
  return {
    id: '',
    name: '',
    description: '',
    endpoint: '',
    username: '',
    password: '',
    rootPath: '/content',
    contentTypes: ['cq:Page'],
    defaultLocale: 'en_US',
    localePaths: [],
    author: true,
    publish: true,
    authorSite: null,
    publishSite: null,
    deliveryUrlPrefix: null,
    fields: { ...DEFAULT_FIELDS },
    schedule: null,
  };
}

/** Each environment the source indexes, with the connector source that runs it and the site it fills. */
export function environmentsOf(
  source: Pick<CmsSource, 'name' | 'author' | 'publish' | 'authorSite' | 'publishSite'>,
): Array<{
  environment: Environment;
  connectorSource: string;
  site: string;
}> {
  const all: Array<{ environment: Environment; connectorSource: string; site: string }> = [];
  if (source.author && source.authorSite)
    all.push({
      environment: 'author',
      connectorSource: connectorSourceName(source.name, 'author'),
      site: source.authorSite,
    });
  if (source.publish && source.publishSite)
    all.push({
      environment: 'publish',
      connectorSource: connectorSourceName(source.name, 'publish'),
      site: source.publishSite,
    });
  return all;
}

/** The connector source of one environment: `<name>-author`, `<name>-publish`, as monitoring shows them. */
export function connectorSourceName(name: string, environment: Environment): string {
  return `${name}-${environment}`;
}

/** Problems the schema cannot express, each naming its member. */
export function checkSource(input: CmsSourceInput): string[] {
  const problems: string[] = [];
  if (!input.author && !input.publish)
    problems.push('body.author or body.publish must be true: a source indexes at least one environment');
  if (input.author && !input.authorSite) problems.push('body.authorSite is required when body.author is true');
  if (input.publish && !input.publishSite) problems.push('body.publishSite is required when body.publish is true');
  // Credentials in a URL would be stored in the clear and answered with the source: they belong in username and
  // password.
  if (hasUserInfo(input.endpoint))
    problems.push(
      'body.endpoint must not hold credentials (user:password@): send them as body.username and body.password',
    );
  if (input.deliveryUrlPrefix && hasUserInfo(input.deliveryUrlPrefix))
    problems.push(
      "body.deliveryUrlPrefix must not hold credentials (user:password@): it goes into every published document's url",
    );
  input.localePaths.forEach((entry, i) => {
    if (!within(entry.path, input.rootPath))
      problems.push(
        `body.localePaths[${i}].path must be within body.rootPath (${input.rootPath}), got ${JSON.stringify(entry.path)}`,
      );
  });
  return problems;
}

function hasUserInfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** Whether a content path is the root path or below it. */
export function within(path: string, root: string): boolean {
  return root === '/' || path === root || path.startsWith(`${root}/`);
}
