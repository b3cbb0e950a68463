import test from 'ava';
import { buildPagination } from '../links/pagination.js';
import {
  addFq,
  addFqLink,
  linkBaseFromUrl,
  parseQueryString,
  removeFq,
  removeFqByFields,
  replaceParam,
  toLink,
} from '../links/query-string.js';

const base = (url: string) => linkBaseFromUrl(url);

test('links are path-only and keep the parameters in their order', (t) => {
  t.is(
    toLink(base('/api/sn/Sample/search?q=cloud&_setlocale=en_US&p=2&fq[]=section:Technology')),
    '/api/sn/Sample/search?q=cloud&_setlocale=en_US&p=2&fq[]=section:Technology',
  );
});

test('values are decoded once and re-encoded so the link stays valid; [] and : stay readable', (t) => {
  t.deepEqual(parseQueryString('q=a+b%20c&fq%5B%5D=type%3ANews'), [
    ['q', 'a b c'],
    ['fq[]', 'type:News'],
  ]);
  t.is(toLink(base('/s?q=rock+%26+roll&fq[]=title:"x"')), '/s?q=rock%20%26%20roll&fq[]=title:%22x%22');
  t.is(toLink(base('/s?q=caf%C3%A9')), '/s?q=caf%C3%A9');
});

test('replaceParam replaces the first occurrence in place, or appends', (t) => {
  t.is(toLink(replaceParam(base('/s?q=x&p=2&rows=5'), 'p', '3')), '/s?q=x&p=3&rows=5');
  t.is(toLink(replaceParam(base('/s?q=x'), 'p', '3')), '/s?q=x&p=3');
  t.is(toLink(replaceParam(base('/s?_setlocale=en_US&q=x'), '_setlocale', 'pt_BR')), '/s?_setlocale=pt_BR&q=x');
});

test('adding a facet filter resets p to 1, and never adds p when it is absent', (t) => {
  t.is(toLink(addFq(base('/s?q=x&p=4'), 'type:News')), '/s?q=x&p=1&fq[]=type:News');
  t.is(toLink(addFq(base('/s?q=x'), 'type:News')), '/s?q=x&fq[]=type:News');
});

test('adding a filter that is already there does not duplicate it', (t) => {
  t.is(toLink(addFq(base('/s?q=x&fq[]=type:News&p=3'), 'type:News')), '/s?q=x&fq[]=type:News&p=1');
});

test('removing a filter drops every copy of it and resets p to 1', (t) => {
  t.is(
    toLink(removeFq(base('/s?q=x&p=5&fq[]=type:News&fq[]=section:Tech&fq[]=type:News'), 'type:News')),
    '/s?q=x&p=1&fq[]=section:Tech',
  );
});

test("clean-up by field drops that field's filters (and filters without a field) and keeps the page", (t) => {
  t.is(
    toLink(removeFqByFields(base('/s?q=x&p=2&fq[]=type:News&fq[]=section:Tech&fq[]=broken'), ['type'])),
    '/s?q=x&p=2&fq[]=section:Tech',
  );
});

const pages = (current: number, count: number) =>
  buildPagination(base('/s?q=x'), current, count).map((i) => `${i.type}:${i.page}`);

test('pagination on page 2 of 5: FIRST, PREVIOUS, pages 1 to 5, NEXT, LAST', (t) => {
  t.is(pages(2, 5).join(' '), 'FIRST:1 PREVIOUS:1 PAGE:1 CURRENT:2 PAGE:3 PAGE:4 PAGE:5 NEXT:3 LAST:5');
});

test('pagination shows three pages each side of the current one', (t) => {
  t.is(
    pages(10, 20).join(' '),
    'FIRST:1 PREVIOUS:9 PAGE:7 PAGE:8 PAGE:9 CURRENT:10 PAGE:11 PAGE:12 PAGE:13 NEXT:11 LAST:20',
  );
});

test('pagination edge cases: first page, last page, one page, no results, beyond the end', (t) => {
  t.deepEqual(pages(1, 3), ['CURRENT:1', 'PAGE:2', 'PAGE:3', 'NEXT:2', 'LAST:3']);
  t.deepEqual(pages(3, 3), ['FIRST:1', 'PREVIOUS:2', 'PAGE:1', 'PAGE:2', 'CURRENT:3']);
  t.deepEqual(pages(1, 1), ['CURRENT:1']);
  t.deepEqual(pages(1, 0), []);
  t.deepEqual(pages(9, 3), ['FIRST:1', 'LAST:3']);
});

test('just past the last page, and past a single page, pagination is still only FIRST and LAST', (t) => {
  t.deepEqual(pages(4, 3), ['FIRST:1', 'LAST:3']);
  t.deepEqual(pages(6, 3), ['FIRST:1', 'LAST:3']);
  t.deepEqual(pages(2, 1), ['FIRST:1', 'LAST:1']);
});

test('pagination links replace p and keep everything else', (t) => {
  const items = buildPagination(base('/api/sn/S/search?q=cloud&_setlocale=en_US&p=2&fq[]=section:Technology'), 2, 5);
  t.is(
    items.find((i) => i.type === 'NEXT')!.href,
    '/api/sn/S/search?q=cloud&_setlocale=en_US&p=3&fq[]=section:Technology',
  );
  t.is(items.find((i) => i.type === 'FIRST')!.text, 'First');
});

test('addFqLink is toLink(addFq(…)) for every base: no parameters, a page, the same filter already there, characters to encode', (t) => {
  const bases = [
    '/api/sn/S/search',
    '/api/sn/S/search?q=a+b&p=3',
    '/s?fq[]=type:News&p=2&q=x',
    '/s?q=caf%C3%A9&fq[]=a%26b:c%20d',
  ].map((u) => linkBaseFromUrl(u));
  for (const base of bases) {
    for (const fq of ['type:News', 'a&b:c d', 'tag:x/y,z', 'lang:日本'])
      t.is(addFqLink(base, fq), toLink(addFq(base, fq)), `${toLink(base)} + ${fq}`);
  }
});
