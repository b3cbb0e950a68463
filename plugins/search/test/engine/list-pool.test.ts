import test from 'ava';
import { ListPool } from '../../engine/list-pool.js';
import { seededRandom } from './reference-search.js';

const values = (pool: ListPool, list: number) => [...(pool.view(list) ?? [])];

test('lists keep their values in order through moves, removals, replacements and compaction', (t) => {
  const pool = new ListPool(4);
  const expected = new Map<number, number[]>();
  const random = seededRandom(7);
  for (let step = 0; step < 20000; step++) {
    const list = Math.floor(random() * 300);
    const mine = expected.get(list) ?? [];
    const roll = random();
    if (roll < 0.6) {
      const value = Math.floor(random() * 1000);
      pool.append(list, value);
      mine.push(value);
    } else if (roll < 0.8) {
      const value = mine.length > 0 && random() < 0.8 ? mine[Math.floor(random() * mine.length)]! : 5000;
      const at = mine.indexOf(value);
      t.is(pool.remove(list, value), at >= 0);
      if (at >= 0) mine.splice(at, 1);
    } else if (roll < 0.9) {
      const next = Array.from({ length: Math.floor(random() * 12) }, () => Math.floor(random() * 1000));
      pool.set(list, next);
      mine.splice(0, mine.length, ...next);
    } else if (roll < 0.95) {
      pool.clear(list);
      mine.length = 0;
    } else {
      pool.trim();
    }
    expected.set(list, mine);
  }
  let total = 0;
  for (const [list, mine] of expected) {
    t.deepEqual(values(pool, list), mine, `list ${list}`);
    t.is(pool.length(list), mine.length);
    total += mine.length;
  }
  t.is(pool.size, total);
  t.is(pool.view(100000), undefined);
  t.is(pool.length(100000), 0);
});
