import { bodySchema, ignoredMembers, recordSchema } from 'vela/plugin';

export const mappingSchema = recordSchema({
  id: 'string',
  name: { type: 'string', description: 'the <mapping_name> of the context: the first path segment it is called by' },
  context: { type: 'string', description: '/proxy/<mapping_name>/<sub_path>; called as /<mapping_name>/<sub_path>' },
  url: { type: 'string', description: 'upstream URL; the rest of the request path and its query are appended' },
  description: 'string',
  timeoutMs: { type: 'integer', description: "longest wait for the upstream's answer before 504" },
  healthCheckPath: {
    type: ['string', 'null'],
    description: "path on the upstream's host the monitor GETs (HEAD of url when null)",
  },
  createdAt: 'string',
  updatedAt: 'string',
});

const fields = {
  context: { type: 'string', minLength: 1, maxLength: 600 },
  url: { type: 'string', minLength: 1, maxLength: 2000 },
  description: { type: 'string', maxLength: 2000 },
  timeoutMs: { type: 'integer', minimum: 1, maximum: 600000 },
  healthCheckPath: { type: ['string', 'null'], maxLength: 1000 },
};

export const mappingCreateBody = bodySchema(['context', 'url'], fields);

/** PUT takes the same members; those left out keep their value (id, name and timestamps are read-only and ignored). */
export const mappingUpdateBody = bodySchema([], {
  ...fields,
  ...ignoredMembers(['id', 'name', 'createdAt', 'updatedAt']),
});
