// The built-in provider's answer, composed on the runtime's worker pool: its time grows with the passages
// and the question (tens of milliseconds for a long conversation), and it answers anonymous chats.
import { type ComposeInput, composeAnswer } from './extractive.js';

export default function compose(input: ComposeInput): { text: string; cited: number[] } {
  return composeAnswer(input.question, input.passages, input.options);
}
