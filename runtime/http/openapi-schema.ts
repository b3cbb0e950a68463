import type { JsonSchema } from '../config/schema-validation.js';

type Schema = Record<string, unknown>;

/**
 * Translates the JSON Schema (draft 7 to 2020-12) that routes validate with into the schema dialect of
 * OpenAPI 3.0.3, which is an older, narrower subset: client generators and validators refuse the newer
 * keywords. Only the description changes; the route keeps validating with its original schema, so what
 * cannot be said in 3.0 is widened (never narrowed) and, where it matters to a reader, put in words.
 *
 * The walk follows schema positions only (properties, items, allOf, ...), so a property that happens to be
 * named `const` or `type` is never mistaken for a keyword.
 */
export function toOpenApiSchema(schema: JsonSchema | boolean | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  return translate(schema);
}

/** Keywords OpenAPI 3.0 does not have and that only narrow what is valid: dropping them widens the description. */
const DROPPED = [
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'definitions',
  'propertyNames',
  'patternProperties',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'prefixItems',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'examples',
  'const',
];

const SCHEMA_MAPS = ['properties'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SCHEMA_VALUES = ['not', 'additionalProperties', 'items'];

function translate(schema: JsonSchema | boolean): Schema {
  // Boolean schemas: `true` accepts anything, `false` nothing.
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  const source = schema as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.includes(key)) continue;
    if (SCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, translate(s as JsonSchema)]));
    } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((s) => translate(s as JsonSchema));
    } else if (SCHEMA_VALUES.includes(key)) {
      out[key] = key === 'additionalProperties' && typeof value === 'boolean' ? value : translate(value as JsonSchema);
    } else {
      out[key] = value;
    }
  }
  translateConst(source, out);
  translateExamples(source, out);
  translateExclusiveBounds(out);
  translateTuple(source, out);
  translatePatternProperties(source, out);
  translateTypes(out);
  if (out.type === 'array' && out.items === undefined) out.items = {};
  return out;
}

/** `const: x` is a one-value enum in 3.0. */
function translateConst(source: Schema, out: Schema): void {
  if (!('const' in source)) return;
  out.enum = [source.const];
  if (source.const === null) out.nullable = true;
}

/** 3.0 has one `example`, not a list of `examples`. */
function translateExamples(source: Schema, out: Schema): void {
  if (Array.isArray(source.examples) && source.examples.length > 0 && out.example === undefined)
    out.example = source.examples[0];
}

/** Draft 6 made exclusive bounds numbers; 3.0 keeps draft 4's booleans beside minimum and maximum. */
function translateExclusiveBounds(out: Schema): void {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] !== 'number') continue;
    out[bound] = out[exclusive];
    out[exclusive] = true;
  }
}

/** A tuple (`prefixItems`, or draft 7's `items` list) becomes an array of any of its members. */
function translateTuple(source: Schema, out: Schema): void {
  const members = Array.isArray(source.prefixItems)
    ? source.prefixItems
    : Array.isArray(source.items)
      ? source.items
      : null;
  if (!members) return;
  out.items = { anyOf: (members as JsonSchema[]).map((s) => translate(s)) };
}

/** A map whose keys follow a pattern is described by its values; the pattern goes into words. */
function translatePatternProperties(source: Schema, out: Schema): void {
  const patterns = source.patternProperties as Record<string, JsonSchema> | undefined;
  const names = source.propertyNames as Schema | undefined;
  if (patterns && out.additionalProperties === undefined) {
    const values = Object.values(patterns).map((s) => translate(s));
    out.additionalProperties = values.length === 1 ? values[0] : { anyOf: values };
  }
  const keyRule = [...Object.keys(patterns ?? {}), typeof names?.pattern === 'string' ? names.pattern : null].filter(
    Boolean,
  );
  if (keyRule.length > 0 && out.description === undefined) out.description = `keys match ${keyRule.join(' or ')}`;
}

/** 3.0 has no type lists and no `null` type: `["string","null"]` is `type: string, nullable: true`. */
function translateTypes(out: Schema): void {
  if (Array.isArray(out.enum) && out.enum.includes(null)) out.nullable = true;
  if (out.type === 'null') {
    delete out.type;
    out.nullable = true;
    out.enum ??= [null];
    return;
  }
  if (!Array.isArray(out.type)) return;
  const types = (out.type as string[]).filter((t) => t !== 'null');
  if (types.length < (out.type as string[]).length) out.nullable = true;
  if (types.length === 1) {
    out.type = types[0];
    return;
  }
  delete out.type;
  if (types.length < 2) return;
  const alternatives = types.map((type) => ({ type, ...(type === 'array' ? { items: {} } : {}) }));
  // An anyOf already there must hold too: both become members of an allOf.
  if (out.anyOf) {
    out.allOf = [...((out.allOf as Schema[] | undefined) ?? []), { anyOf: out.anyOf }, { anyOf: alternatives }];
    delete out.anyOf;
  } else out.anyOf = alternatives;
}
