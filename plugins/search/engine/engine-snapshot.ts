import { hasBit } from './bitset.js';
import { FacetColumn } from './facet-column.js';
import { NumberColumn } from './number-column.js';
import { OrdinalMap } from './ordinals.js';
import { PhraseIndex } from './phrase-index.js';
import type { EngineSchema } from './search-engine.js';
import { SnapshotReader, SnapshotWriter } from './snapshot-format.js';
import { StringColumn } from './string-column.js';
import { TextIndex } from './text-index.js';

const KIND = 'search engine';
/**
 * Bump when the layout below changes; an older snapshot is then refused and the index rebuilt.
 * 2: autocomplete phrases (meta `phrases`, sections `phrase.counts` and `phrase.ids`).
 * 3: BM25F weight classes in place of first-position slots (meta `resolution` counts classes), meta `fieldLengths`.
 */
const VERSION = 3;

/** Everything a MemoryEngine holds besides its options and scratch space. */
export interface EngineState {
  ordinals: OrdinalMap;
  text: TextIndex;
  phrases: PhraseIndex;
  facets: Map<string, FacetColumn>;
  numbers: Map<string, NumberColumn>;
  strings: Map<string, StringColumn>;
}

/** The JSON part of a snapshot; typed arrays go to binary sections named after the field's position. */
interface SnapshotMeta {
  schema: EngineSchema;
  resolution: number;
  /** External id per ordinal, null for a free ordinal. */
  ids: Array<string | null>;
  terms: string[];
  fieldLengths: Array<[string, number, number]>;
  phrases: string[];
  facetValues: string[][];
  stringValues: string[][];
}

export function writeEngineSnapshot(schema: EngineSchema, state: EngineState): Buffer {
  const end = state.ordinals.end;
  const writer = new SnapshotWriter();
  const text = state.text.export();
  writer.add('text.slotCounts', text.slotCounts).add('text.ordinals', text.ordinals);
  const phrases = state.phrases.export(end);
  writer.add('phrase.counts', phrases.counts).add('phrase.ids', phrases.ids);
  const facetValues = schema.facetFields.map((field, i) => {
    const data = state.facets.get(field)!.export(end);
    writer
      .add(`facet.${i}.codes`, data.codes)
      .add(`facet.${i}.manyLengths`, data.manyLengths)
      .add(`facet.${i}.pool`, data.pool);
    return data.values;
  });
  for (const [i, field] of schema.numberFields.entries())
    writer.add(`number.${i}`, state.numbers.get(field)!.export(end));
  const stringValues = schema.stringFields.map((field, i) => {
    const data = state.strings.get(field)!.export(end);
    writer.add(`string.${i}.codes`, data.codes);
    return data.values;
  });
  const meta: SnapshotMeta = {
    schema,
    resolution: state.text.resolution,
    ids: state.ordinals.export(),
    terms: text.terms,
    fieldLengths: text.fieldLengths,
    phrases: phrases.phrases,
    facetValues,
    stringValues,
  };
  return writer.toBuffer(KIND, VERSION, meta);
}

/** Reads writeEngineSnapshot() output back; throws an Error naming the problem for anything else. */
export function readEngineSnapshot(buffer: Buffer): { schema: EngineSchema; state: EngineState } {
  const reader = SnapshotReader.open(buffer, KIND, VERSION);
  const meta = checkMeta(reader.meta);
  const { schema } = meta;
  const ordinals = OrdinalMap.restore(meta.ids);
  const end = ordinals.end;
  const capacity = ordinals.capacity;
  const sized = <T extends { length: number }>(name: string, array: T): T => {
    if (array.length !== end) throw corrupt(`section "${name}" has ${array.length} entries for ${end} ordinals`);
    return array;
  };
  const text = TextIndex.restore(
    {
      terms: meta.terms,
      fieldLengths: meta.fieldLengths,
      slotCounts: reader.u32('text.slotCounts'),
      ordinals: reader.u32('text.ordinals'),
    },
    meta.resolution,
    end,
    (ordinal) => hasBit(ordinals.live, ordinal),
  );
  const phrases = PhraseIndex.restore(
    {
      phrases: meta.phrases,
      counts: sized('phrase.counts', reader.u32('phrase.counts')),
      ids: reader.u32('phrase.ids'),
    },
    (ordinal) => hasBit(ordinals.live, ordinal),
  );
  const facets = new Map(
    schema.facetFields.map((field, i) => {
      const data = {
        values: meta.facetValues[i]!,
        codes: sized(`facet.${i}.codes`, reader.u32(`facet.${i}.codes`)),
        manyLengths: sized(`facet.${i}.manyLengths`, reader.u32(`facet.${i}.manyLengths`)),
        pool: reader.u32(`facet.${i}.pool`),
      };
      return [field, FacetColumn.restore(data, capacity)] as const;
    }),
  );
  const numbers = new Map(
    schema.numberFields.map(
      (field, i) => [field, NumberColumn.restore(sized(`number.${i}`, reader.f64(`number.${i}`)), capacity)] as const,
    ),
  );
  const strings = new Map(
    schema.stringFields.map((field, i) => {
      const codes = sized(`string.${i}.codes`, reader.u32(`string.${i}.codes`));
      return [field, StringColumn.restore({ values: meta.stringValues[i]!, codes }, capacity)] as const;
    }),
  );
  return { schema, state: { ordinals, text, phrases, facets, numbers, strings } };
}

function checkMeta(value: unknown): SnapshotMeta {
  const meta = value as SnapshotMeta;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  const schema = meta?.schema;
  const ok =
    schema &&
    strings(schema.facetFields) &&
    strings(schema.numberFields) &&
    strings(schema.stringFields) &&
    Number.isInteger(meta.resolution) &&
    meta.resolution >= 1 &&
    meta.resolution <= 255 &&
    Array.isArray(meta.ids) &&
    meta.ids.every((id) => id === null || typeof id === 'string') &&
    strings(meta.terms) &&
    Array.isArray(meta.fieldLengths) &&
    meta.fieldLengths.every(
      (entry) =>
        Array.isArray(entry) &&
        typeof entry[0] === 'string' &&
        Number.isFinite(entry[1]) &&
        Number.isFinite(entry[2]) &&
        entry[2] > 0,
    ) &&
    strings(meta.phrases) &&
    Array.isArray(meta.facetValues) &&
    meta.facetValues.length === schema.facetFields.length &&
    meta.facetValues.every(strings) &&
    Array.isArray(meta.stringValues) &&
    meta.stringValues.length === schema.stringFields.length &&
    meta.stringValues.every(strings);
  if (!ok) throw corrupt('its header does not describe an engine');
  return meta;
}

function corrupt(detail: string): Error {
  return new Error(`${KIND} snapshot is corrupt: ${detail}`);
}
