import { randomUUID } from 'node:crypto';
import { col, type Database, nowIso, rowCodec } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import { type IndexingRule, ruleValueProblem } from './indexing-rule.js';
import { nestedRepetition } from './safe-regex.js';

export type RuleInput = Omit<IndexingRule, 'id' | 'lastModifiedDate' | 'description' | 'ruleType'> & {
  description?: string;
  ruleType?: 'IGNORE';
};

const rules = rowCodec<IndexingRule>('connector_rules', {
  id: 'id',
  name: 'name',
  description: 'description',
  source: 'source',
  attribute: 'attribute',
  ruleType: 'rule_type',
  values: col.json('values'),
  lastModifiedDate: 'last_modified',
});
const TABLE = rules.table;

/** Indexing rules, stored; runs read the rules of their source when they begin. */
export class RuleStore {
  constructor(private readonly db: Database) {}

  async list(source?: string): Promise<IndexingRule[]> {
    const query = this.db(TABLE).select().orderBy('name').orderBy('id');
    if (source !== undefined) query.where({ source });
    return rules.all(query);
  }

  find(id: string): Promise<IndexingRule | undefined> {
    return rules.first(this.db(TABLE).where({ id }));
  }

  async get(id: string): Promise<IndexingRule> {
    const rule = await this.find(id);
    if (!rule) throw connectorErrors.ruleNotFound(id);
    return rule;
  }

  async create(input: RuleInput): Promise<IndexingRule> {
    const rule = this.check(randomUUID(), input);
    await this.db(TABLE).insert(rules.toRow(rule));
    return rule;
  }

  async update(id: string, input: RuleInput): Promise<IndexingRule> {
    await this.get(id);
    const rule = this.check(id, input);
    await this.db(TABLE).where({ id }).update(rules.toRow(rule));
    return rule;
  }

  /** true when a rule was deleted, false when none had that id. */
  async delete(id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ id }).delete()) > 0;
  }

  private check(id: string, input: RuleInput): IndexingRule {
    input.values.forEach((value, i) => {
      const problem = ruleValueProblem(value);
      if (problem) throw connectorErrors.invalidParameter(`values[${i}]`, `must be a regular expression: ${problem}`);
      const unsafe = nestedRepetition(value);
      if (unsafe) throw connectorErrors.invalidParameter(`values[${i}]`, unsafe);
    });
    return {
      id,
      name: input.name,
      description: input.description ?? '',
      source: input.source,
      attribute: input.attribute,
      ruleType: input.ruleType ?? 'IGNORE',
      values: [...input.values],
      lastModifiedDate: nowIso(),
    };
  }
}
