import type { ChatMessage, Passage } from '../providers/provider.js';

export const DEFAULT_SYSTEM_PROMPT =
  'You answer questions about the documents of the site "{site}". Use only the numbered sources given with the question. ' +
  'After each fact, cite its source by number in brackets, like [1]. If the sources do not hold the answer, say so. ' +
  'Answer in the language of the question.';

/** The sources as the model reads them: each document once, its number, title and link, then its passages. */
export function sourcesText(passages: readonly Passage[]): string {
  const blocks: string[] = [];
  let current: Passage | null = null;
  for (const p of passages) {
    if (current?.n === p.n) {
      blocks[blocks.length - 1] += `\n${p.text}`;
    } else {
      blocks.push(`[${p.n}] ${p.title}${p.url ? ` (${p.url})` : ''}\n${p.text}`);
    }
    current = p;
  }
  return blocks.join('\n\n');
}

/** The original's rewriting: a single word is asked about ("what is X?"). */
export function asQuestion(q: string): string {
  const trimmed = q.trim();
  return /^\S+$/.test(trimmed) && !trimmed.includes('*') ? `What is ${trimmed}?` : trimmed;
}

/**
 * The messages of a site chat. A system prompt holding `{question}` or `{information}` is the original's
 * template and becomes the whole prompt with both filled in; any other system prompt (or the default)
 * is the system message, and the sources and the question follow as the user's message.
 */
export function sitePrompt(
  systemPrompt: string,
  site: string,
  question: string,
  passages: readonly Passage[],
): ChatMessage[] {
  const information = sourcesText(passages) || '(no document of the site matched the question)';
  const asked = asQuestion(question);
  if (/\{(question|information)\}/.test(systemPrompt)) {
    return [
      {
        role: 'user',
        content: systemPrompt
          .replaceAll('{site}', site)
          .replaceAll('{question}', asked)
          .replaceAll('{information}', information),
      },
    ];
  }
  const system = (systemPrompt.trim() || DEFAULT_SYSTEM_PROMPT).replaceAll('{site}', site);
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Sources:\n\n${information}\n\nQuestion: ${asked}` },
  ];
}
