import { createHash } from 'node:crypto';
import type { SourceDocument } from '@vela/plugin-connector/api';
import type { CmsSource, ContentType, Environment } from '../api.js';
import { within } from '../sources/cms-source.js';
import { ASSET, childNode, PAGE, primaryType, stringOf, stringsOf } from './content-node.js';
import { htmlText } from './html-text.js';
import type { SlingClient, SlingNode } from './sling-client.js';
import { slingDate } from './sling-date.js';

/** What a document is made of before the source's field mapping names its search fields. */
interface ContentProperties {
  title?: string;
  description?: string;
  text?: string;
  tags: string[];
  lastModified?: string;
  template?: string;
  /** Activated on the publish instance (its last replication action). */
  delivered: boolean;
  /** When it was last activated, as ISO 8601: the publish instance's copy is the author's of that moment. */
  replicated?: string;
}

/** Properties of components whose text a page's body is made of. */
const COMPONENT_TEXT = ['jcr:title', 'title', 'text', 'jcr:description'];

/** One content node read for indexing, and what the publish instance has of it. */
export interface ReadContent {
  document: SourceDocument;
  delivered: boolean;
  /**
   * Changed on author since its last activation: the document holds edits the publish instance does not
   * have, so it must not reach the publish site (whose copy stays as it was).
   */
  editedSinceActivation: boolean;
}

/**
 * Turns the repository's pages and assets into documents for one environment of one source: the properties
 * of `jcr:content` (and of its components, for the text), mapped to search fields, the url where the
 * environment serves it, and the locale of its path.
 */
export class ContentReader {
  private readonly fingerprint: string;

  constructor(
    private readonly client: SlingClient,
    private readonly source: CmsSource,
    private readonly environment: Environment,
  ) {
    // A change of what the documents are made from must send them again, although the content is unchanged.
    this.fingerprint = createHash('sha1')
      .update(
        JSON.stringify([
          source.fields,
          source.endpoint,
          source.deliveryUrlPrefix,
          source.localePaths,
          source.defaultLocale,
          environment,
        ]),
      )
      .digest('hex')
      .slice(0, 16);
  }

  /** The document at `path`; null when the node is gone, outside the root path or not of the source's types. */
  async read(path: string, knownType?: ContentType): Promise<ReadContent | null> {
    if (!within(path, this.source.rootPath)) return null;
    const type = knownType ?? (await this.typeOf(path));
    if (!type || !this.source.contentTypes.includes(type)) return null;
    const content = (await this.client.node(`${path === '/' ? '' : path}/jcr:content`, 'infinity')) ?? {};
    const properties = type === PAGE ? pageProperties(content) : assetProperties(content);
    const name = path.slice(path.lastIndexOf('/') + 1);
    const version = this.versionOf(properties);
    return {
      document: {
        id: path,
        locale: this.localeOf(path),
        attributes: this.attributes({ ...properties, title: properties.title ?? name }, this.urlOf(path, type)),
        ...(version ? { version: `${version}|${this.fingerprint}` } : {}),
      },
      delivered: properties.delivered,
      editedSinceActivation:
        !!properties.replicated && !!properties.lastModified && properties.lastModified > properties.replicated,
    };
  }

  /**
   * What changes when the environment's copy does: the author's with every save (its last-modified date), the
   * publish instance's only when it is activated again (its last replication date, where the repository keeps one).
   */
  private versionOf(properties: ContentProperties): string | undefined {
    return this.environment === 'publish'
      ? (properties.replicated ?? properties.lastModified)
      : properties.lastModified;
  }

  private async typeOf(path: string): Promise<ContentType | undefined> {
    const node = await this.client.node(path, 0);
    const type = node ? primaryType(node) : undefined;
    return type === PAGE || type === ASSET ? type : undefined;
  }

  private attributes(properties: ContentProperties, url: string): Record<string, unknown> {
    const attributes: Record<string, unknown> = {};
    const { fields } = this.source;
    const put = (field: string | null, value: unknown) => {
      if (field && value !== undefined && !(Array.isArray(value) && value.length === 0)) attributes[field] = value;
    };
    put(fields.title, properties.title);
    put(fields.description, properties.description);
    put(fields.text, properties.text);
    put(fields.tags, properties.tags);
    put(fields.lastModified, properties.lastModified);
    put(fields.template, properties.template);
    attributes.url = url;
    return attributes;
  }

  /** Where the environment serves the node: pages as `.html`, assets as they are. */
  private urlOf(path: string, type: ContentType): string {
    const prefix =
      this.environment === 'publish' ? (this.source.deliveryUrlPrefix ?? this.source.endpoint) : this.source.endpoint;
    return `${prefix}${encodeURI(path)}${type === PAGE ? '.html' : ''}`;
  }

  /** The locale of the longest locale path holding the node, else the source's default. */
  private localeOf(path: string): string {
    let best: { path: string; locale: string } | undefined;
    for (const entry of this.source.localePaths)
      if (within(path, entry.path) && (!best || entry.path.length > best.path.length)) best = entry;
    return best?.locale ?? this.source.defaultLocale;
  }
}

function delivered(content: SlingNode): boolean {
  return (
    (stringOf(content, 'cq:lastReplicationAction_publish') ?? stringOf(content, 'cq:lastReplicationAction')) ===
    'Activate'
  );
}

/** The replication status of the publish agent first, as for the action. */
function replicated(content: SlingNode): string | undefined {
  return slingDate(content['cq:lastReplicated_publish']) ?? slingDate(content['cq:lastReplicated']);
}

function pageProperties(content: SlingNode): ContentProperties {
  return {
    title: stringOf(content, 'jcr:title') ?? stringOf(content, 'pageTitle'),
    description: stringOf(content, 'jcr:description'),
    text: componentText(content) || undefined,
    tags: stringsOf(content, 'cq:tags'),
    lastModified: slingDate(content['cq:lastModified']) ?? slingDate(content['jcr:lastModified']),
    template: stringOf(content, 'cq:template'),
    delivered: delivered(content),
    replicated: replicated(content),
  };
}

function assetProperties(content: SlingNode): ContentProperties {
  const metadata = childNode(content, 'metadata');
  const tags = stringsOf(metadata, 'cq:tags');
  return {
    title: stringOf(metadata, 'dc:title') ?? stringOf(content, 'jcr:title'),
    description: stringOf(metadata, 'dc:description'),
    tags: tags.length > 0 ? tags : stringsOf(content, 'cq:tags'),
    lastModified: slingDate(content['jcr:lastModified']) ?? slingDate(content['cq:lastModified']),
    delivered: delivered(content),
    replicated: replicated(content),
  };
}

/** The text of a page's components, in document order (their titles and rich text, as plain text). */
function componentText(content: SlingNode): string {
  const parts: string[] = [];
  const visit = (node: SlingNode) => {
    for (const value of Object.values(node)) {
      const child =
        value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SlingNode) : undefined;
      if (!child) continue;
      for (const name of COMPONENT_TEXT) {
        const text = stringOf(child, name);
        if (text) parts.push(htmlText(text));
      }
      visit(child);
    }
  };
  visit(content);
  return parts.filter(Boolean).join(' ');
}
