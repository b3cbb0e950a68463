import { type JsonSchema, pathParams, recordSchema } from 'vela/plugin';
import { idSchema, sourceNameSchema } from './common.js';

/** Body of POST and PUT /api/v2/connector/indexing-rule: an indexing rule without id. */
export const ruleInputSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'source', 'attribute', 'values'],
  properties: {
    id: {
      ...idSchema,
      type: ['string', 'null'],
      description: 'ignored on create; on update it must match the path when given',
    },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', maxLength: 1000, default: '' },
    source: { ...sourceNameSchema, description: 'the source the rule applies to' },
    attribute: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'the document attribute the values are tested against',
    },
    ruleType: {
      enum: ['IGNORE'],
      default: 'IGNORE',
      description: 'IGNORE: a matching document is not indexed (and is de-indexed if it was)',
    },
    values: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: { type: 'string', minLength: 1, maxLength: 1000 },
      description: 'regular expressions, matched from the start of the value',
    },
    lastModifiedDate: { type: ['string', 'null'], description: 'ignored; set by the server' },
  },
};

export const ruleSchema = recordSchema({
  id: 'string',
  name: 'string',
  description: 'string',
  source: 'string',
  attribute: 'string',
  ruleType: 'string',
  values: 'string[]',
  lastModifiedDate: 'date-time',
});

/** The empty rule a form starts from: no id and no date yet. */
export const ruleStructureSchema: JsonSchema = {
  ...ruleSchema,
  properties: {
    ...(ruleSchema.properties as Record<string, JsonSchema>),
    id: { type: 'null', description: 'the connector gives a new rule its id' },
    lastModifiedDate: { type: 'null' },
  },
};

export const ruleIdParam = pathParams({ id: idSchema });
