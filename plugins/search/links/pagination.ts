import { type LinkBase, replaceParam, toLink } from './query-string.js';

export type PaginationType = 'FIRST' | 'PREVIOUS' | 'PAGE' | 'CURRENT' | 'NEXT' | 'LAST';

export interface PaginationItem {
  type: PaginationType;
  text: string;
  href: string;
  page: number;
}

/** Pages shown on each side of the current one. */
const WINDOW = 3;

/**
 * FIRST and PREVIOUS after page 1; the pages from current−3 to current+3 (CURRENT for this one);
 * NEXT and LAST before the last page. Past the last page: FIRST and LAST only, so a client can
 * always get back. No results: no items.
 */
export function buildPagination(base: LinkBase, current: number, pageCount: number): PaginationItem[] {
  return paginationItems(current, pageCount, (page) => toLink(replaceParam(base, 'p', page)));
}

/** buildPagination with each page's link made by `href` (a search makes them from its LinkTemplate). */
export function paginationItems(current: number, pageCount: number, href: (page: string) => string): PaginationItem[] {
  const item = (type: PaginationType, page: number, text = String(page)): PaginationItem => ({
    type,
    text,
    href: href(String(page)),
    page,
  });
  if (pageCount <= 0) return [];
  // Past the last page (even just past it, or with a single page): the way back, nothing else.
  if (current > pageCount) return [item('FIRST', 1, 'First'), item('LAST', pageCount, 'Last')];
  const items: PaginationItem[] = [];
  if (current > 1) {
    items.push(item('FIRST', 1, 'First'));
    items.push(item('PREVIOUS', current - 1, 'Previous'));
  }
  for (let n = Math.max(1, current - WINDOW); n <= Math.min(current + WINDOW, pageCount); n++) {
    items.push(item(n === current ? 'CURRENT' : 'PAGE', n));
  }
  if (current < pageCount) {
    items.push(item('NEXT', current + 1, 'Next'));
    items.push(item('LAST', pageCount, 'Last'));
  }
  return items;
}
