import test from 'ava';
import type { RequestHandler } from 'express';
import type { ApiRouter } from '../../runtime/http/api-router.js';
import type { RouteSpec } from '../../runtime/http/openapi-registry.js';
import { answers, routeGroup } from '../../runtime/http/route-group.js';

type Call = [method: string, path: string, spec: RouteSpec];

/** A router that records the routes it is given, so the specs a group hands on can be read. */
function recordingRouter(): { router: ApiRouter; calls: Call[] } {
  const calls: Call[] = [];
  const route =
    (method: string) =>
    (path: string, spec: RouteSpec, ..._handlers: RequestHandler[]) => {
      calls.push([method, path, spec]);
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
  t.deepEqual(calls, [
    ['get', '/a', { access: 'key', scope: 'search', tags: ['sites'], summary: 'A' }],
    ['post', '/b', { access: 'key', scope: 'import', tags: ['import'], summary: 'B' }],
    ['put', '/c', { access: 'admin', scope: 'search', tags: ['sites'] }],
  ]);
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
