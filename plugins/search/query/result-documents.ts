import { ownValue, setOwn } from '@vela/search-text';
import { httpErrors } from 'vela/plugin';
import type { LinkTemplate } from '../links/link-template.js';
import type { MetadataFormat, SiteConfig } from '../store/site-types.js';
import { type Attributes, valueText } from './indexable.js';
import type { FlatMetadataEntry, MetadataEntry, ResultDocument } from './search-response.js';

export interface DocumentOptions {
  base: LinkTemplate;
  highlight: ((text: string) => string) | null;
  fieldList: string[] | null;
  /** The request's metadata form, else the site's. */
  metadata: MetadataFormat;
}

/**
 * The metadata parameter (GET `metadata`, the POST body's `metadata`): grouped or flat, in any case; null when the
 * request leaves it to the site.
 */
export function parseMetadataFormat(value: string | null | undefined): MetadataFormat | null {
  const format = (value ?? '').trim().toLowerCase();
  if (format === '') return null;
  if (format === 'grouped' || format === 'flat') return format;
  throw httpErrors.invalidParameter('metadata', `must be grouped or flat, got ${JSON.stringify(value)}`);
}

/**
 * One result: its stored fields (matched terms highlighted in hl fields, required fields filled
 * with their default), its URL as `source`, and `metadata` linking each facet value it carries to
 * the search filtered by it, in the form asked for.
 */
export function toResultDocument(attributes: Attributes, config: SiteConfig, options: DocumentOptions): ResultDocument {
  const { site } = config;
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (options.fieldList && !options.fieldList.includes(name)) continue;
    const field = config.fieldsByName.get(name);
    const highlightIt = options.highlight && site.hl && field?.hl && (field.type === 'TEXT' || field.type === 'STRING');
    setOwn(
      fields,
      name,
      highlightIt
        ? Array.isArray(value)
          ? value.map((v) => (typeof v === 'string' ? options.highlight!(v) : v))
          : typeof value === 'string'
            ? options.highlight!(value)
            : value
        : value,
    );
  }
  for (const field of config.fields) {
    if (
      field.required &&
      field.defaultValue !== null &&
      ownValue(fields, field.name) === undefined &&
      (!options.fieldList || options.fieldList.includes(field.name))
    ) {
      setOwn(fields, field.name, field.defaultValue);
    }
  }
  const grouped = groupedMetadata(attributes, config, options.base);
  const metadata = options.metadata === 'flat' ? flatMetadata(grouped) : grouped;
  const url = site.defaultURLField ? ownValue(attributes, site.defaultURLField) : undefined;
  return { source: typeof url === 'string' ? url : null, elevate: false, fields, metadata };
}

/** Each enabled facet field the document has a value of, with its values and the searches filtered by them. */
function groupedMetadata(attributes: Attributes, config: SiteConfig, base: LinkTemplate): MetadataEntry[] {
  const metadata: MetadataEntry[] = [];
  for (const field of config.fields) {
    if (!field.facet || !field.enabled) continue;
    const raw = ownValue(attributes, field.name);
    if (raw === undefined || raw === null) continue;
    const labels = (Array.isArray(raw) ? raw : [raw])
      .filter((v) => v !== null && v !== undefined)
      .map((v) => valueText(v, field))
      .filter((label) => label !== '');
    if (labels.length === 0) continue;
    // The values the index filters by (query/indexable.ts): a single-valued facet keeps the first only,
    // so every link finds this document.
    const indexed = field.multiValued ? [...new Set(labels)] : labels.slice(0, 1);
    metadata.push({
      name: field.name,
      values: indexed.map((label) => ({ label, link: base.addFq(`${field.name}:${label}`) })),
    });
  }
  return metadata;
}

/** The same values and links, one entry each, field after field: the original's `{href, text}`. */
function flatMetadata(grouped: MetadataEntry[]): FlatMetadataEntry[] {
  return grouped.flatMap((entry) => entry.values.map(({ label, link }) => ({ href: link, text: label })));
}
