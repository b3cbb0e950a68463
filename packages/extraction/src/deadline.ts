import { ExtractionError } from './extraction-error.js';

/**
 * Settle with `promise`, or fail with a timeout ExtractionError at `deadline` (epoch ms), calling `onTimeout` first.
 */
export async function beforeDeadline<T>(
  promise: Promise<T>,
  deadline: number,
  what: string,
  onTimeout: () => unknown = () => {},
): Promise<T> {
  const left = deadline - Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        void onTimeout();
        reject(new ExtractionError('timeout', `the ${what} took longer than the time limit to extract`));
      },
      Math.max(0, left),
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
