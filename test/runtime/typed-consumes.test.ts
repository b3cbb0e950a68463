import test from 'ava';
import { type Database, definePlugin, type PluginContext } from 'vela/plugin';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

// Checked by tsc (the project's typecheck covers test/): `consumes` in code types ctx.resolve to those names.
const typed = definePlugin({
  consumes: ['db', 'changes?'] as const,
  register(ctx) {
    const db: Database = ctx.resolve('db');
    const changes = ctx.resolve('changes');
    // @ts-expect-error an optional service may be missing: undefined until checked
    void changes.mode;
    void changes?.mode;
    void ctx.resolve('logger').info;
    // @ts-expect-error not in `consumes`
    ctx.resolve('accounts');
    void db;
    return undefined;
  },
});

// A config type given explicitly: the list's type is named too.
const consumes = ['scheduler'] as const;
const withConfig = definePlugin<{ every: string }, typeof consumes>({
  consumes,
  register(ctx: PluginContext<{ every: string }, typeof consumes>) {
    ctx.resolve('scheduler').add('tick', ctx.config.every, () => undefined);
    // @ts-expect-error not in `consumes`
    ctx.resolve('db');
    return undefined;
  },
});

// Without `consumes` in code, any service name type-checks and the manifest alone rules.
const untyped = definePlugin({
  register(ctx) {
    void ctx.resolve('accounts');
    return undefined;
  },
});

test('a definition declares consumes as a plain list beside register', (t) => {
  t.deepEqual(typed.consumes, ['db', 'changes?']);
  t.deepEqual(withConfig.consumes, ['scheduler']);
  t.is(untyped.consumes, undefined);
});

const fixture = (name: string, listed: string[], declared: string) => ({
  manifest: manifest(name, { consumes: listed }),
  files: {
    'index.ts': `export default { consumes: ${declared}, register(ctx) { ctx.routes((r) => r.get('/${name}', { access: 'public' }, async (_q, res) => {
      await ctx.resolve('db').raw('select 1');
      res.json({ changes: ctx.resolve('changes') === undefined ? 'none' : 'some', retriever: ctx.resolve('search.retriever') === undefined ? 'none' : 'some' });
    })); } };`,
  },
});

test('a plugin whose definition lists the same consumes as plugin.json loads; an optional service nothing provides resolves to undefined', async (t) => {
  const loaderPath = await writePlugins([
    fixture('agreed', ['db', 'changes', 'search.retriever?'], `['search.retriever?', 'db', 'changes']`),
  ]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/agreed')).json(), { changes: 'some', retriever: 'none' });
});

test('a plugin whose definition and plugin.json list different consumes fails the boot, naming both lists', async (t) => {
  const loaderPath = await writePlugins([
    fixture('split', ['db', 'changes'], `['db', 'changes', 'search.retriever?']`),
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.is((error as Error & { code?: string }).code, 'E_CONSUMES_MISMATCH');
  t.true(
    error?.message.endsWith(
      `"consumes" is [db, changes] in plugin.json but [db, changes, search.retriever?] in the plugin's definition; list the same services in both`,
    ),
  );
});
