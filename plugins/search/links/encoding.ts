// Readable links: `[]` in names and `:`, `/`, `,` in values stay literal; everything else that
// could break the query string (space, &, #, %, quotes, non-ASCII) is percent-encoded.

export const encodeName = (name: string) => encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']');

const LITERAL_VALUE = /^[\w\-.!~*'():/,]*$/;
const KEPT = /%3A|%2F|%2C/g;
const keptChar = (encoded: string) => (encoded === '%3A' ? ':' : encoded === '%2F' ? '/' : ',');

/** Most values (facet labels, page numbers) have nothing to encode: they skip encodeURIComponent. */
export const encodeValue = (value: string) =>
  LITERAL_VALUE.test(value) ? value : encodeURIComponent(value).replace(KEPT, keptChar);

/** One `name=value` of a link's query string. */
export const encodeParam = (name: string, value: string) => `${encodeName(name)}=${encodeValue(value)}`;
