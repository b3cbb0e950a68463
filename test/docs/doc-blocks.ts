/**
 * The shell examples of a Markdown document, as the docs test runs them: each ```sh block, split into
 * commands, each with the output the document shows for it.
 *
 * Two ways of showing output are understood:
 * - prompt style: commands start with `$ `; the lines up to the next `$ ` are the command's output;
 * - script style (no `$ ` in the block): every line is shell; `# ` lines right under a command (no blank
 *   line between) are its output, and a plain ``` (or ```json, ```text) block right after the sh block is
 *   the output of its last command.
 *
 * A block preceded by `<!-- docs-test: skip (reason) -->` is not run; the reason is required, so nothing is
 * left out silently.
 */

export interface DocCommand {
  /** 1-based line of the command in the document. */
  line: number;
  text: string;
  /** The output the document shows, or null when it shows none (then only the exit status is checked). */
  expected: string | null;
  expectedLine: number;
}

export interface DocBlock {
  line: number;
  commands: DocCommand[];
  /** Why the block is not run, from its skip marker. */
  skip?: string;
}

export interface DocExamples {
  blocks: DocBlock[];
  /** Markers the harness does not understand: a typo must not turn into a silent skip or a silent run. */
  problems: string[];
}

interface Fence {
  line: number;
  lang: string;
  body: string[];
  /** Text between the previous fence (or the start) and this one. */
  before: string[];
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);
const OUTPUT_LANGS = new Set(['', 'json', 'text', 'http']);
const MARKER = /<!--\s*docs-test:(.*?)-->/;
const SKIP = /^\s*skip\s*\((.+)\)\s*$/;

function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  let before: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i] ?? '');
    if (!open) {
      before.push(lines[i] ?? '');
      continue;
    }
    const fence = open[2] ?? '```';
    const body: string[] = [];
    const start = i;
    for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence); i++) body.push(lines[i] ?? '');
    fences.push({ line: start + 1, lang: (open[3] ?? '').toLowerCase(), body, before });
    before = [];
  }
  return fences;
}

/** Where the shell line continues: an open quote, a trailing backslash, an open here-document or compound command. */
interface LineState {
  quote: '' | "'" | '"';
  heredoc: string | null;
  /** Compound commands opened and not closed yet (`for ... do` without its `done`, `if` without `fi`, ...). */
  depth: number;
}

const OPENS = new Set(['for', 'while', 'until', 'if', 'case', '{']);
const CLOSES = new Set(['done', 'fi', 'esac', '}']);
/** Words after which the next word is in command position again. */
const LEADS = new Set(['do', 'then', 'else', 'elif', '{', '!', 'time']);

/** The unquoted word at `i` (up to a blank or an operator), when it starts one. */
function wordAt(line: string, i: number): string {
  return /^[^\s;&|()<>'"\\]+/.exec(line.slice(i))?.[0] ?? '';
}

function scanLine(line: string, state: LineState): { continues: boolean } {
  if (state.heredoc !== null) {
    if (line.trim() === state.heredoc) state.heredoc = null;
    return { continues: state.heredoc !== null };
  }
  let escaped = false;
  // A keyword counts only where a command starts: `echo done` closes nothing.
  let commandStart = true;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (state.quote === "'") {
      if (c === "'") state.quote = '';
      continue;
    }
    if (escaped) {
      escaped = false;
      continue;
    }
    if (c === '\\') {
      escaped = true;
      continue;
    }
    if (state.quote === '"') {
      if (c === '"') state.quote = '';
      continue;
    }
    if (c === "'" || c === '"') {
      state.quote = c;
      commandStart = false;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) break;
    else if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') commandStart = true;
    else if (/\s/.test(c ?? '')) continue;
    else if (c !== '<' && c !== '>' && (i === 0 || /[\s;&|()]/.test(line[i - 1] ?? ''))) {
      const word = wordAt(line, i);
      if (commandStart) {
        if (OPENS.has(word)) state.depth++;
        else if (CLOSES.has(word)) state.depth = Math.max(0, state.depth - 1);
        // `for NAME in ...` and `case WORD in` take words, not a command, until their `do` or first pattern.
        commandStart = (LEADS.has(word) || OPENS.has(word)) && word !== 'for' && word !== 'case';
      }
      i += Math.max(word.length, 1) - 1;
      if (word.length === 0) commandStart = false;
    } else if (c === '<' && line.startsWith('<<', i) && line[i + 2] !== '<') {
      const tag = /^<<-?\s*(['"]?)(\w+)\1/.exec(line.slice(i));
      if (tag) state.heredoc = tag[2] ?? null;
    }
  }
  return { continues: escaped || state.quote !== '' || state.heredoc !== null || state.depth > 0 };
}

/** Consume one command starting at lines[i]; returns its text and the index after it. */
function takeCommand(lines: string[], i: number, strip: (line: string) => string): { text: string; next: number } {
  const state: LineState = { quote: '', heredoc: null, depth: 0 };
  const parts: string[] = [];
  let j = i;
  for (; j < lines.length; j++) {
    const line = j === i ? strip(lines[j] ?? '') : (lines[j] ?? '');
    parts.push(line);
    if (!scanLine(line, state).continues) {
      j++;
      break;
    }
  }
  return { text: parts.join('\n'), next: j };
}

function trimBlankEnds(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end);
}

function promptCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  let i = 0;
  while (i < body.length) {
    if (!(body[i] ?? '').startsWith('$ ')) {
      i++;
      continue;
    }
    const line = firstLine + i;
    const { text, next } = takeCommand(body, i, (l) => l.slice(2));
    let end = next;
    while (end < body.length && !(body[end] ?? '').startsWith('$ ')) end++;
    const output = trimBlankEnds(body.slice(next, end));
    commands.push({
      line,
      text,
      expected: output.length > 0 ? output.join('\n') : null,
      expectedLine: firstLine + next,
    });
    i = end;
  }
  return commands;
}

function scriptCommands(body: string[], firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  let i = 0;
  while (i < body.length) {
    const trimmed = (body[i] ?? '').trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      i++;
      continue;
    }
    const line = firstLine + i;
    const { text, next } = takeCommand(body, i, (l) => l);
    let end = next;
    const output: string[] = [];
    while (end < body.length && /^\s*#( |$)/.test(body[end] ?? ''))
      output.push((body[end++] ?? '').replace(/^\s*# ?/, ''));
    commands.push({
      line,
      text,
      expected: output.length > 0 ? output.join('\n') : null,
      expectedLine: firstLine + next,
    });
    i = end;
  }
  return commands;
}

function markerOf(fence: Fence): { skip?: string; problem?: string } {
  // The marker sits right above the block: only blank lines may come between.
  const above = trimBlankEnds(fence.before);
  const last = above[above.length - 1] ?? '';
  const marker = MARKER.exec(last);
  if (!marker) return {};
  const skip = SKIP.exec(marker[1] ?? '');
  if (!skip)
    return {
      problem: `line ${fence.line - 1}: unknown docs-test marker "${marker[0]}" (the form is <!-- docs-test: skip (reason) -->)`,
    };
  return { skip: (skip[1] ?? '').trim() };
}

export function extractExamples(markdown: string): DocExamples {
  const fences = fencesOf(markdown);
  const blocks: DocBlock[] = [];
  const problems: string[] = [];
  fences.forEach((fence, index) => {
    const marker = markerOf(fence);
    if (marker.problem) problems.push(marker.problem);
    if (!SHELL_LANGS.has(fence.lang)) {
      if (marker.skip !== undefined)
        problems.push(
          `line ${fence.line}: a docs-test marker above a ${fence.lang || 'plain'} block, which is never run`,
        );
      return;
    }
    const firstLine = fence.line + 1;
    const prompt = fence.body.some((l) => l.startsWith('$ '));
    const commands = prompt ? promptCommands(fence.body, firstLine) : scriptCommands(fence.body, firstLine);
    const following = fences[index + 1];
    const last = commands[commands.length - 1];
    if (
      !prompt &&
      last &&
      last.expected === null &&
      following &&
      OUTPUT_LANGS.has(following.lang) &&
      trimBlankEnds(following.before).length === 0
    ) {
      last.expected = trimBlankEnds(following.body).join('\n');
      last.expectedLine = following.line + 1;
    }
    blocks.push({ line: fence.line, commands, ...(marker.skip !== undefined ? { skip: marker.skip } : {}) });
  });
  return { blocks, problems };
}
