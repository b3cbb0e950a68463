import test from 'ava';
import { execute, GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLSchema, parse } from 'graphql';
import { budgetedFieldResolver, finishResult, OperationBudget } from '../operation/operation-budget.js';

// The time budget while results are written, on a clock of the test's own: every `tick` field costs 1 ms.
const clock = { now: 0 };
const Part = new GraphQLObjectType({ name: 'Part', fields: { n: { type: GraphQLInt } } });
const Item = new GraphQLObjectType({
  name: 'Item',
  fields: {
    n: { type: GraphQLInt },
    parts: { type: new GraphQLList(Part) },
    tick: {
      type: GraphQLInt,
      resolve: () => {
        clock.now += 1;
        return clock.now;
      },
    },
  },
});
const items = {
  type: new GraphQLList(Item),
  args: { count: { type: GraphQLInt } },
  resolve: (_: unknown, a: { count: number }) => Array.from({ length: a.count }, (_, n) => ({ n })),
};
const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { items } }) });

async function run(query: string, budgetMs: number) {
  clock.now = 0;
  const budget = new OperationBudget(budgetMs, 1_000_000, () => clock.now);
  let fields = 0;
  const counting: typeof budgetedFieldResolver = (...args) => {
    fields += 1;
    return budgetedFieldResolver(...args);
  };
  const result = await execute({ schema, document: parse(query), contextValue: { budget }, fieldResolver: counting });
  return { result: finishResult(result, 1_000_000), fields };
}

test('results stop being written once the budget is spent: the field cut is null with one error, earlier fields keep their data', async (t) => {
  const { result, fields } = await run(
    '{ first: items(count: 50) { n tick parts { n } } second: items(count: 1000) { n tick parts { n } } third: items(count: 5) { n } }',
    100,
  );
  t.is((result.data!.first as unknown[]).length, 50, 'written within the budget: whole');
  t.is(result.data!.second, null, 'cut while written: null, not a list with holes');
  t.is(result.data!.third, null, 'after the budget: not written');
  t.deepEqual(
    result.errors?.map((e) => [e.path, e.extensions.code]),
    [
      [['second'], 'time_budget_exceeded'],
      [['third'], 'time_budget_exceeded'],
    ],
  );
  // Written whole, the two lists take 1,050 x 12 fields. Cut, each remaining item of the list under way still
  // costs one refused field per member (graphql completes a list item by item), but nothing below it is written.
  t.true(fields < 1050 * 3, `${fields} fields resolved`);
});

test('within the budget nothing changes', async (t) => {
  const { result } = await run('{ first: items(count: 50) { n tick } second: items(count: 20) { n } }', 100);
  t.is(result.errors, undefined);
  t.is((result.data!.second as unknown[]).length, 20);
});
