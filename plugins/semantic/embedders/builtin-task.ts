/**
 * The built-in embedder's work on the runtime's worker pool: training a site's model (seconds of CPU for
 * thousands of documents) and embedding batches of passages. Each worker thread keeps the models it loaded, by
 * key, so a batch does not carry a model of megabytes.
 */
import { readFile } from 'node:fs/promises';
import { type EmbedderOptions, TextEmbedder } from '@vela/embedding';

export interface TrainInput {
  texts: string[];
  options: EmbedderOptions;
}

export interface TrainOutput {
  bytes: Uint8Array;
  version: string;
  dimensions: number;
  vocabulary: number;
}

export interface EmbedInput {
  /** The model's key: what a worker keeps it by. */
  key: string;
  /** Its file, read once per worker. */
  file: string;
  texts: string[];
}

/** Models a worker keeps: a site or two being embedded at once, and the model being trained next. */
const KEPT = 3;
const models = new Map<string, Promise<TextEmbedder>>();

export function train({ texts, options }: TrainInput): TrainOutput {
  const model = TextEmbedder.train(texts, options);
  return {
    bytes: model.serialize(),
    version: model.version,
    dimensions: model.dimensions,
    vocabulary: model.vocabularySize,
  };
}

function modelOf(key: string, file: string): Promise<TextEmbedder> {
  let model = models.get(key);
  if (!model) {
    model = readFile(file).then((bytes) => TextEmbedder.deserialize(new Uint8Array(bytes)));
    model.catch(() => models.delete(key));
    models.set(key, model);
    while (models.size > KEPT) models.delete(models.keys().next().value as string);
  }
  return model;
}

export async function embed({ key, file, texts }: EmbedInput): Promise<Array<Float32Array | null>> {
  const model = await modelOf(key, file);
  return texts.map((text) => model.embed(text));
}
