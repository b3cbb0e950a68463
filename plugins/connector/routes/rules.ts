import { type ApiRouter, listRoute } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import type { RuleInput } from '../rules/rule-store.js';
import { sourceParam } from '../schemas/common.js';
import { ruleIdParam, ruleInputSchema, ruleSchema, ruleStructureSchema } from '../schemas/rule.js';
import { API, type ConnectorDomain } from './route-context.js';

const tags = ['indexing rules'];
const BASE = `${API}/indexing-rule`;

export function mountRuleRoutes(router: ApiRouter, { rules, sources }: ConnectorDomain): void {
  /** A rule must name a source the connector knows: a rule for a misspelt name would never apply. */
  const knownSource = (input: RuleInput) => {
    if (!sources.find(input.source))
      throw connectorErrors.invalidParameter(
        'source',
        `must name a source, got ${JSON.stringify(input.source)} (GET /api/v2/connector/source lists them)`,
      );
  };

  const listed = { access: 'key', scope: 'connector', tags, description: 'rules', items: ruleSchema } as const;
  listRoute(router, BASE, { ...listed, summary: 'List every indexing rule' }, () => rules.list());

  router.get(
    `${BASE}/structure`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'An empty rule, as a model for a new one',
      responses: { 200: { description: 'an empty rule', schema: ruleStructureSchema } },
    },
    (_req, res) => {
      res.json({
        id: null,
        name: '',
        description: '',
        source: '',
        attribute: '',
        ruleType: 'IGNORE',
        values: [],
        lastModifiedDate: null,
      });
    },
  );

  listRoute(
    router,
    `${BASE}/source/:source`,
    {
      ...listed,
      summary: 'List the rules of a source (404 for an unknown source without rules)',
      params: sourceParam,
      responses: { 404: { description: 'no such source' } },
    },
    async (req) => {
      const source = String(req.params.source);
      const found = await rules.list(source);
      if (found.length === 0 && !sources.find(source)) throw connectorErrors.sourceNotFound(source);
      return found;
    },
  );

  router.get(
    `${BASE}/:id`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'Get a rule',
      params: ruleIdParam,
      responses: { 200: { description: 'the rule', schema: ruleSchema }, 404: { description: 'no such rule' } },
    },
    async (req, res) => {
      res.json(await rules.get(String(req.params.id)));
    },
  );

  router.post(
    BASE,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'Create a rule',
      body: ruleInputSchema,
      responses: { 201: { description: 'the rule', schema: ruleSchema } },
    },
    async (req, res) => {
      knownSource(req.body as RuleInput);
      res.status(201).json(await rules.create(req.body as RuleInput));
    },
  );

  router.put(
    `${BASE}/:id`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'Replace a rule',
      params: ruleIdParam,
      body: ruleInputSchema,
      responses: { 200: { description: 'the rule', schema: ruleSchema }, 404: { description: 'no such rule' } },
    },
    async (req, res) => {
      const id = String(req.params.id);
      const bodyId = (req.body as { id?: unknown }).id;
      if (typeof bodyId === 'string' && bodyId !== '' && bodyId !== id)
        throw connectorErrors.invalidParameter(
          'id',
          `in the body ("${bodyId}") must match the id in the path ("${id}")`,
        );
      await rules.get(id);
      knownSource(req.body as RuleInput);
      res.json(await rules.update(id, req.body as RuleInput));
    },
  );

  router.delete(
    `${BASE}/:id`,
    {
      access: 'key',
      scope: 'connector',
      tags,
      summary: 'Delete a rule: true, or false when no rule has that id',
      params: ruleIdParam,
      responses: { 200: { description: 'whether a rule was deleted', schema: { type: 'boolean' } } },
    },
    async (req, res) => {
      res.json(await rules.delete(String(req.params.id)));
    },
  );
}
