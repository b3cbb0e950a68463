import type Tesseract from 'tesseract.js';
import { beforeDeadline } from '../deadline.js';
import { ExtractionError } from '../extraction-error.js';
import { languageFolder, type OcrLanguage } from './languages.js';

export interface Recognized {
  text: string;
  /** Tesseract's mean word confidence, 0 to 100. */
  confidence: number;
}

// Module state is per thread: each worker-pool thread keeps its tesseract workers warm (the first use of a
// language set pays ~0.3 s to load the model; every later image only its recognition). A few language sets
// at most, the least recently used one ended past that.
const MAX_WARM = 3;
/**
 * Past this many pixels, the worker that recognized an image is ended afterwards: tesseract's WebAssembly
 * memory grows with the image and is never given back (a blank 24-megapixel page leaves it 80 MB larger).
 */
export const LARGE_IMAGE_PIXELS = 10_000_000;
const warm = new Map<string, Promise<Tesseract.Worker>>();
let folder: string | undefined;

async function createWorker(languages: readonly OcrLanguage[]): Promise<Tesseract.Worker> {
  const { createWorker: create, OEM } = (await import('tesseract.js')).default;
  folder ??= languageFolder();
  const worker = await create([...languages], OEM.LSTM_ONLY, {
    langPath: folder, // a local folder: tesseract.js reads it from disk; without langPath it would fetch from a CDN
    gzip: true,
    cacheMethod: 'none', // no copies written to the working directory
    // Without a handler, tesseract.js throws a failed job from its message listener (an uncaught exception).
    errorHandler: () => {},
  });
  // Tesseract retries each line it reads with low confidence as white on black; documents and scans are dark
  // on light, and the retry costs a second recognition of those lines.
  await worker.setParameters({ tessedit_do_invert: '0' } as never);
  return worker;
}

function workerFor(languages: readonly OcrLanguage[]): Promise<Tesseract.Worker> {
  const key = languages.join('+');
  let worker = warm.get(key);
  if (worker) {
    warm.delete(key); // re-inserted below: the map's order is the order of use
  } else {
    worker = createWorker(languages);
    worker.catch(() => warm.delete(key));
  }
  warm.set(key, worker);
  while (warm.size > MAX_WARM) {
    const [oldest, ending] = warm.entries().next().value as [string, Promise<Tesseract.Worker>];
    warm.delete(oldest);
    ending.then((w) => w.terminate()).catch(() => {});
  }
  return worker;
}

/**
 * Text of one image (PNG, JPEG, TIFF, WebP, or a PGM/PPM a PDF page was rendered to), on this thread's warm
 * worker; `pixels` its size, past LARGE_IMAGE_PIXELS the worker is ended afterwards (its memory returns).
 */
export async function recognize(
  image: Uint8Array,
  languages: readonly OcrLanguage[],
  deadline: number,
  pixels = 0,
): Promise<Recognized> {
  const key = languages.join('+');
  const pending = workerFor(languages);
  // Recognition cannot be interrupted inside tesseract's thread: past the deadline that worker is ended.
  const end = () => {
    if (warm.get(key) === pending) warm.delete(key);
    pending.then((w) => w.terminate()).catch(() => {});
  };
  const worker = await beforeDeadline(pending, deadline, 'image', end);
  let data: Tesseract.Page;
  try {
    // Always bytes, never a string: tesseract.js would fetch a string that looks like a URL.
    ({ data } = await beforeDeadline(
      worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength)),
      deadline,
      'image',
      end,
    ));
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(
      'corrupt_content',
      `the image cannot be read: ${String((error as Error)?.message ?? error).replace(/^Error: /, '')}`,
    );
  }
  if (pixels > LARGE_IMAGE_PIXELS) end();
  return { text: data.text, confidence: Math.round(data.confidence) };
}

/** The language sets this thread keeps a tesseract worker warm for. */
export function warmLanguageSets(): string[] {
  return [...warm.keys()];
}

/** End this thread's tesseract workers (tests, and a thread about to exit). */
export async function endWarmWorkers(): Promise<void> {
  const ending = [...warm.values()];
  warm.clear();
  await Promise.all(ending.map((w) => w.then((x) => x.terminate()).catch(() => {})));
}
