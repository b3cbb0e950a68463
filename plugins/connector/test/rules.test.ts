import test from 'ava';
import { nestedRepetition } from '../rules/safe-regex.js';
import {
  call,
  createSource,
  makePackages,
  runAndWait,
  searchIds,
  searchRecords,
  startPackageSource,
} from './helpers.js';

test('IGNORE rules keep matching documents out, de-index ones already indexed, and let them back when removed', async (t) => {
  const docs = makePackages(40);
  const { vela, file } = await startPackageSource(t, docs);
  await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.is((await searchIds(vela, 'Docs')).length, 40);

  // Sections cycle editors, web, libs, net: ignore web and net (anchored at the start: "we" matches "web").
  const rule = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'no network',
    source: 'pkgs',
    attribute: 'section',
    ruleType: 'IGNORE',
    values: ['we', 'net$'],
  });
  t.is(rule.status, 201);
  // A rule of another source changes nothing here.
  await createSource(vela, 'elsewhere', file, 'Docs');
  t.is(
    (
      await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
        name: 'other',
        source: 'elsewhere',
        attribute: 'section',
        ruleType: 'IGNORE',
        values: ['.*'],
      })
    ).status,
    201,
  );
  const ruled = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  t.like(ruled, { status: 'COMPLETED', ignored: 20, deindexed: 20, unchanged: 20, errors: 0 });
  const kept = docs.filter((d) => d.section === 'editors' || d.section === 'libs').map((d) => d.id);
  t.deepEqual(await searchIds(vela, 'Docs'), kept);
  const ignored = await searchRecords(vela, 'pkgs', 'IGNORED', 100);
  t.is(ignored.body.totalElements, 20);

  // Again: ignored documents stay ignored, nothing is sent.
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), { ignored: 20, deindexed: 0, indexed: 0 });

  // Tags are a list: a rule on a list attribute matches when any value does.
  await call(vela, 'PUT', `/api/v2/connector/indexing-rule/${rule.body.id}`, {
    name: 'no tag0',
    source: 'pkgs',
    attribute: 'tags',
    ruleType: 'IGNORE',
    values: ['tag0'],
  });
  const retagged = await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
  const tag0 = docs.filter((d) => d.tags.includes('tag0')).map((d) => d.id);
  t.deepEqual(
    await searchIds(vela, 'Docs'),
    docs.map((d) => d.id).filter((id) => !tag0.includes(id)),
  );
  t.is(retagged.ignored, tag0.length);

  await call(vela, 'DELETE', `/api/v2/connector/indexing-rule/${rule.body.id}`);
  t.like(await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs'), {
    ignored: 0,
    indexed: tag0.length,
    errors: 0,
  });
  t.deepEqual(
    await searchIds(vela, 'Docs'),
    docs.map((d) => d.id),
  );
});

test('nested repetition, the shape of catastrophic backtracking, is found; ordinary patterns pass', (t) => {
  for (const p of [
    '(a+)+$',
    '(a*)*',
    '(\\w+\\s?)*x',
    '((a+)?)+',
    '(a{2,})+',
    '(x?y)*',
    '(a+){3}',
    '(\\w+\\.){2,}',
    '(?:[a-z]+)+?',
  ])
    t.truthy(nestedRepetition(p), p);
  for (const p of [
    'draft',
    '.*draft',
    '(\\d{3})+',
    '\\.(png|jpe?g)$',
    '(?:https?://)?x+',
    '[(a+)+]',
    '\\(a+\\)+',
    '(foo|bar)*',
    'a{2}',
    '(ab)+c+',
    'a\\{2,\\}',
  ])
    t.is(nestedRepetition(p), null, p);
});
