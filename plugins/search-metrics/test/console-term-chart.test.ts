import test from 'ava';
import { fitLabel, PAD, ROW, termChart } from '../console/assets/term-chart.js';

const terms = [
  { term: 'editor', count: 8, averageHits: 12 },
  { term: 'audio', count: 4, averageHits: 3.5 },
  { term: 'a search term far too long to fit beside its bar', count: 1, averageHits: 0 },
];

test('one bar a term, in the order given, as long as its count allows', (t) => {
  const chart = termChart(terms, 600);
  t.is(chart.bars.length, 3);
  t.deepEqual(
    chart.bars.map((b) => b.term),
    terms.map((x) => x.term),
  );
  const [first, second, third] = chart.bars;
  t.is(first!.width, 600 - first!.x - PAD.right, 'the largest count fills the room');
  t.is(second!.width, first!.width / 2);
  t.is(third!.width, first!.width / 8);
  t.true(chart.bars.every((b, i) => b.y === PAD.top + i * ROW + (ROW - b.height) / 2));
  t.is(chart.height, PAD.top + PAD.bottom + 3 * ROW);
  t.true(
    chart.bars.every((b) => b.valueX > b.x + b.width),
    'the count follows its bar',
  );
});

test('labels take two fifths of a narrow chart and are cut to fit', (t) => {
  const chart = termChart(terms, 300);
  t.is(chart.labelWidth, 120);
  t.is(chart.bars[0]!.label, 'editor');
  t.true(chart.bars[2]!.label.endsWith('…'));
  t.true(chart.bars[2]!.label.length < terms[2]!.term.length);
  t.true(
    chart.bars.every((b) => b.valueX + 30 <= 300),
    'nothing passes the right edge',
  );
  t.is(fitLabel('short', 100), 'short');
});

test('no terms: an empty chart one row high', (t) => {
  const chart = termChart([], 400);
  t.true(chart.empty);
  t.deepEqual(chart.bars, []);
  t.is(chart.height, PAD.top + PAD.bottom + ROW);
});
