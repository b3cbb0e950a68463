/** Longest term, user id and locale a metrics row keeps (the columns' sizes). */
export const MAX_TERM_LENGTH = 200;
export const MAX_USER_ID_LENGTH = 100;

/**
 * A term as metrics group it and latest searches answer it: accents and other combining marks removed
 * (NFD), runs of white space made one space, trimmed, lower case. Letters of every script are kept (the
 * original dropped every non-ASCII character, which empties terms in Greek, Cyrillic or CJK).
 */
export function sanitizeTerm(term: string): string {
  return term
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .slice(0, MAX_TERM_LENGTH);
}

/** The user id as stored and looked up: cut to the column's size, the same way on both sides. */
export const userKey = (userId: string): string => userId.slice(0, MAX_USER_ID_LENGTH);
