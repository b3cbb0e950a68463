// Token counting on the runtime's worker pool: each thread loads the encoding on its first count and keeps it.
import { countTokensHere } from './token-counter.js';

export default function countTokens(text: string): Promise<number> {
  return countTokensHere(text);
}
