import type { ApiRouter } from 'vela/plugin';
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

  const rulesApi = router.withDefaults({ access: 'key', scope: 'connector', tags });
  const theRule = { description: 'the rule', schema: ruleSchema };
  const missing = { 404: { description: 'no such rule' } };
  const rule = rulesApi.collection({ path: BASE, params: ruleIdParam, ...theRule, responses: missing });
  rule.list({ summary: 'List every indexing rule', description: 'rules' }, () => rules.list());

  rulesApi.item(
    'get',
    `${BASE}/structure`,
    { summary: 'An empty rule, as a model for a new one', description: 'an empty rule', schema: ruleStructureSchema },
    () => ({
      id: null,
      name: '',
      description: '',
      source: '',
      attribute: '',
      ruleType: 'IGNORE',
      values: [],
      lastModifiedDate: null,
    }),
  );

  rulesApi.list(
    `${BASE}/source/:source`,
    {
      description: 'rules',
      items: ruleSchema,
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

  rule.read({ summary: 'Get a rule' }, (id) => rules.get(id));

  rule.create({ summary: 'Create a rule', body: ruleInputSchema }, async (req) => {
    knownSource(req.body as RuleInput);
    return rules.create(req.body as RuleInput);
  });

  rule.replace({ summary: 'Replace a rule', body: ruleInputSchema }, async (id, req) => {
    const bodyId = (req.body as { id?: unknown }).id;
    if (typeof bodyId === 'string' && bodyId !== '' && bodyId !== id)
      throw connectorErrors.invalidParameter('id', `in the body ("${bodyId}") must match the id in the path ("${id}")`);
    await rules.get(id);
    knownSource(req.body as RuleInput);
    return rules.update(id, req.body as RuleInput);
  });

  rulesApi.item(
    'delete',
    `${BASE}/:id`,
    {
      summary: 'Delete a rule: true, or false when no rule has that id',
      params: ruleIdParam,
      description: 'whether a rule was deleted',
      schema: { type: 'boolean' },
    },
    (req) => rules.delete(String(req.params.id)),
  );
}
