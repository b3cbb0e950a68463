import test from 'ava';
import type { RequestHandler } from 'express';
import type { ApiRouter } from '../../runtime/http/api-router.js';
import { deletedSchema } from '../../runtime/http/delete-route.js';
import type { RouteSpec } from '../../runtime/http/openapi-registry.js';
import { answers } from '../../runtime/http/route-answers.js';
import { routeGroup } from '../../runtime/http/route-group.js';

type Call = [method: string, path: string, spec: RouteSpec, handler: RequestHandler];

/** A router that records the routes it is given, so the specs a group hands on can be read. */
function recordingRouter(): { router: ApiRouter; calls: Call[] } {
  const calls: Call[] = [];
  const route =
    (method: string) =>
    (path: string, spec: RouteSpec, ...handlers: RequestHandler[]) => {
      calls.push([method, path, spec, handlers.at(-1)!]);
      return router;
    };
  const router = {
    get: route('get'),
    post: route('post'),
    put: route('put'),
    patch: route('patch'),
    delete: route('delete'),
  } as unknown as ApiRouter;
  return { router, calls };
}

const schema = { type: 'object' };

test("a group's routes start from its defaults, and what a spec says wins", (t) => {
  const { router, calls } = recordingRouter();
  const reads = routeGroup(router, { access: 'key', scope: 'search', tags: ['sites'] });
  reads.get('/a', { summary: 'A' }, (_req, res) => res.end());
  reads.post('/b', { summary: 'B', scope: 'import', tags: ['import'] }, (_req, res) => res.end());
  reads.put('/c', { access: 'admin' }, (_req, res) => res.end());
  t.deepEqual(
    calls.map(([method, path, spec]) => [method, path, spec]),
    [
      ['get', '/a', { access: 'key', scope: 'search', tags: ['sites'], summary: 'A' }],
      ['post', '/b', { access: 'key', scope: 'import', tags: ['import'], summary: 'B' }],
      ['put', '/c', { access: 'admin', scope: 'search', tags: ['sites'] }],
    ],
  );
});

test("a group's item, list and delete routes document their answers as the SDK's route kinds do", (t) => {
  const { router, calls } = recordingRouter();
  const group = routeGroup(router, { access: 'key', tags: ['x'] });
  group
    .item('post', '/x', { description: 'the x', schema, status: 201 }, () => ({}))
    .item('delete', '/x/:id', { description: 'the x', schema, responses: { 404: { description: 'no x' } } }, () => ({}))
    .list('/x', { description: 'xs', items: schema }, () => [])
    .remove('/x/:id/y', { description: 'the y is deleted' }, async () => ({ id: 'y' }));
  const responses = calls.map(([method, , spec]) => [method, spec.access, spec.tags, spec.responses]);
  t.deepEqual(responses.slice(0, 3), [
    ['post', 'key', ['x'], { 201: { description: 'the x', schema } }],
    ['delete', 'key', ['x'], { 200: { description: 'the x', schema }, 404: { description: 'no x' } }],
    ['get', 'key', ['x'], { 200: { description: 'xs', schema: { type: 'array', items: schema } } }],
  ]);
  t.is(calls[3]![0], 'delete');
  t.is(calls[3]![2].responses?.[200]?.description, 'the y is deleted');
});

test('answers is the usual 200 answer, with the others a route names', (t) => {
  t.deepEqual(answers('the site', schema), { 200: { description: 'the site', schema } });
  t.deepEqual(answers('the site', schema, { 404: { description: 'no site' } }), {
    200: { description: 'the site', schema },
    404: { description: 'no site' },
  });
});

test("a collection's routes: the list and create at its path, the member routes at its id, with its answers", async (t) => {
  const { router, calls } = recordingRouter();
  const group = routeGroup(router, { access: 'admin', tags: ['apps'] });
  const params = { type: 'object', properties: { appId: { type: 'string' } } };
  const missing = { 404: { description: 'no such app' } };
  group
    .collection({ path: '/apps', id: 'appId', params, description: 'the app', schema, responses: missing })
    .list({ summary: 'List', description: 'apps' }, () => [])
    .create({ summary: 'Create', body: schema }, () => ({}))
    .read({ summary: 'Get' }, (id) => ({ id }))
    .replace({ summary: 'Change', body: schema, responses: { 409: { description: 'taken' } } }, (id) => ({ id }))
    .remove({ summary: 'Delete', description: 'the app is deleted' }, async (id) => ({ id }));
  t.deepEqual(
    calls.map(([method, path, spec]) => [method, path, spec.summary, spec.params, spec.responses]),
    [
      ['get', '/apps', 'List', undefined, { 200: { description: 'apps', schema: { type: 'array', items: schema } } }],
      ['post', '/apps', 'Create', undefined, { 201: { description: 'the app', schema } }],
      ['get', '/apps/:appId', 'Get', params, { 200: { description: 'the app', schema }, ...missing }],
      [
        'put',
        '/apps/:appId',
        'Change',
        params,
        { 200: { description: 'the app', schema }, ...missing, 409: { description: 'taken' } },
      ],
      [
        'delete',
        '/apps/:appId',
        'Delete',
        params,
        { 200: { description: 'the app is deleted', schema: deletedSchema }, ...missing },
      ],
    ],
  );
  t.true(calls.every(([, , spec]) => spec.access === 'admin' && spec.tags?.[0] === 'apps'));
});

/** What a route's handler answers for a request with these path parameters. */
async function answerOf(handler: RequestHandler, params: Record<string, string>): Promise<[number, unknown]> {
  let answer: [number, unknown] = [0, undefined];
  const res = {
    statusCode: 200,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      answer = [this.statusCode, body];
      return this;
    },
  };
  await handler({ params } as never, res as never, () => {});
  return answer;
}

test("a collection's member routes hand their answers the id the path names", async (t) => {
  const { router, calls } = recordingRouter();
  routeGroup(router, { access: 'admin' })
    .collection({ path: '/apps', id: 'appId', params: {}, description: 'the app', schema })
    .create({}, () => ({ id: 'new' }))
    .read({}, (id) => ({ read: id }))
    .replace({}, (id) => ({ replaced: id }))
    .remove({ description: 'the app is deleted' }, async (id) => ({ id, name: 'A' }));
  const got = await Promise.all(calls.map(([, , , handler]) => answerOf(handler, { appId: 'a1' })));
  t.deepEqual(got, [
    [201, { id: 'new' }],
    [200, { read: 'a1' }],
    [200, { replaced: 'a1' }],
    [200, { deleted: true, id: 'a1', name: 'A' }],
  ]);
});

test("a collection's members are named by :id unless it says otherwise; delete answers what its function returns", async (t) => {
  const { router, calls } = recordingRouter();
  routeGroup(router, { access: 'admin' })
    .collection({ path: '/rules', params: {}, description: 'the rule', schema })
    .delete({ description: 'whether a rule was deleted', schema: { type: 'boolean' } }, (id) => id === 'r1');
  const [[method, path, spec, handler]] = calls as [Call];
  t.deepEqual(
    [method, path, spec.responses],
    ['delete', '/rules/:id', { 200: { description: 'whether a rule was deleted', schema: { type: 'boolean' } } }],
  );
  t.deepEqual(await answerOf(handler, { id: 'r1' }), [200, true]);
});
