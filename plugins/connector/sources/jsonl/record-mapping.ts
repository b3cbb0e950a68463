/** How a record's members become a document: which member is the id, and attribute ← member. */
export interface RecordMapping {
  idField: string;
  /**
   * attribute → member name (dotted for nested members) or {template: "https://x/{name}"}; absent: every member as is.
   */
  fields?: Record<string, string | { template: string }>;
  localeField?: string;
}

export type MappedRecord = { id: string; attributes: Record<string, unknown>; locale?: string } | { error: string };

function member(record: Record<string, unknown>, dotted: string): unknown {
  if (!dotted.includes('.')) return record[dotted];
  let value: unknown = record;
  for (const part of dotted.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function fill(template: string, record: Record<string, unknown>): string {
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = member(record, name);
    return value === undefined || value === null ? '' : encodeURIComponent(String(value));
  });
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Map one parsed record; a record without a usable id is an error the run records. */
export function mapRecord(record: unknown, mapping: RecordMapping): MappedRecord {
  return recordMapper(mapping)(record);
}

/** mapRecord for many records of one mapping: the mapping's entries are listed once, not per record. */
export function recordMapper(mapping: RecordMapping): (record: unknown) => MappedRecord {
  const fields = mapping.fields ? Object.entries(mapping.fields) : null;
  return (record) => {
    if (!record || typeof record !== 'object' || Array.isArray(record))
      return { error: 'the line is not a JSON object' };
    const source = record as Record<string, unknown>;
    const id = idOf(member(source, mapping.idField));
    if (id === null) return { error: `member "${mapping.idField}" (the id) is missing or empty` };
    let attributes: Record<string, unknown>;
    if (fields) {
      attributes = {};
      for (const [attribute, from] of fields) {
        const value = typeof from === 'string' ? member(source, from) : fill(from.template, source);
        if (value !== undefined && value !== null && value !== '') attributes[attribute] = value;
      }
    } else {
      attributes = { ...source };
    }
    attributes.id = id;
    const locale = mapping.localeField ? member(source, mapping.localeField) : undefined;
    return typeof locale === 'string' && locale ? { id, attributes, locale } : { id, attributes };
  };
}
