import test from 'ava';
import {
  bodySchema,
  ignoredMembers,
  memberSchema,
  recordSchema,
  withoutDefaults,
} from '../../runtime/http/record-schemas.js';

test('members in short expand to the schemas they stand for', (t) => {
  t.deepEqual(memberSchema('string'), { type: 'string' });
  t.deepEqual(memberSchema('integer?'), { type: ['integer', 'null'] });
  t.deepEqual(memberSchema('string[]'), { type: 'array', items: { type: 'string' } });
  t.deepEqual(memberSchema('date-time'), { type: 'string', format: 'date-time' });
  t.deepEqual(memberSchema('date-time?'), { type: ['string', 'null'], format: 'date-time' });
  const full = { type: 'string', maxLength: 3 };
  t.is(memberSchema(full), full, 'a schema is taken as it is');
});

test('records, bodies, update members and ignored members', (t) => {
  t.deepEqual(recordSchema({ id: 'string', n: { type: 'integer' } }, { required: ['id'] }), {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string' }, n: { type: 'integer' } },
  });
  t.deepEqual(bodySchema(['name'], { name: 'string' }), {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name: { type: 'string' } },
  });
  t.false('required' in bodySchema([], { name: 'string' }), 'no required list when none is required');
  t.deepEqual(JSON.parse(JSON.stringify(withoutDefaults({ size: { type: 'integer', default: 1 } }))), {
    size: { type: 'integer' },
  });
  t.deepEqual(ignoredMembers(['id', 'createdAt']), { id: {}, createdAt: {} });
  t.deepEqual(ignoredMembers(['id'], 'set by the server'), { id: { description: 'set by the server' } });
});
