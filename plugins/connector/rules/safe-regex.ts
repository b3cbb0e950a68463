/**
 * Regular expressions that operators give (IGNORE rule values, a web source's allow and deny lists, a
 * filesystem source's /patterns/) run on the event loop, which JavaScript cannot interrupt. A repeated
 * group that itself holds a repetition, as in (a+)+$ or (\w+\s?)*x, backtracks exponentially on a
 * value that almost matches and would freeze every service of the runtime; such patterns are refused
 * when they are saved. The check is the classic star-height test (as safe-regex does it): it refuses a
 * group repeated more than once that holds a variable repetition ((a+)+, (x?y)*, (\w+\.){2,}), and lets
 * through patterns without one; fixed counts inside ((\d{3})+) are fine.
 */

interface Frame {
  /** The group holds a quantifier of variable count (?, *, +, {1,3}), directly or in a nested group. */
  repeats: boolean;
}

const QUANTIFIER = /^\{(\d+)(,(\d*))?\}/;

/** Why the pattern is unsafe to run on the event loop, or null. The pattern must compile (checked apart). */
export function nestedRepetition(pattern: string): string | null {
  const stack: Frame[] = [{ repeats: false }];
  // The group that just closed, when the previous atom was one.
  let lastGroup: Frame | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    let repeatMax = -1;
    let repeatMin = 0;
    if (c === '\\') {
      i += 1;
      lastGroup = null;
      continue;
    }
    if (c === '[') {
      // A character class is one atom: skip to its unescaped end.
      for (i += 1; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i += 1;
      lastGroup = null;
      continue;
    }
    if (c === '(') {
      stack.push({ repeats: false });
      lastGroup = null;
      continue;
    }
    if (c === ')') {
      const closed = stack.length > 1 ? stack.pop()! : { repeats: false };
      if (closed.repeats) stack[stack.length - 1]!.repeats = true;
      lastGroup = closed;
      continue;
    }
    if (c === '*' || c === '+') repeatMax = Infinity;
    else if (c === '?') repeatMax = 1;
    else if (c === '{') {
      const q = QUANTIFIER.exec(pattern.slice(i));
      if (q) {
        repeatMin = Number(q[1]);
        repeatMax = q[2] === undefined ? repeatMin : q[3] === '' ? Infinity : Number(q[3]);
        i += q[0].length - 1;
      }
    }
    if (repeatMax < 0) {
      lastGroup = null;
      continue;
    }
    if (pattern[i + 1] === '?') i += 1; // lazy
    // A group repeated more than once that holds a repetition of its own: the same text splits many ways.
    if (repeatMax > 1 && lastGroup?.repeats) {
      return 'repeats a group that itself holds a repetition (as in (a+)+): it can take exponential time on a value that almost matches; rewrite it without the nested repetition';
    }
    if (repeatMax > repeatMin) stack[stack.length - 1]!.repeats = true;
    lastGroup = null;
  }
  return null;
}
