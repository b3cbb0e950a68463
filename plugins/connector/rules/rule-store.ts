import { randomUUID } from 'node:crypto';
import { type Database, nowIso, readJson, writeJson } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import { type IndexingRule, ruleValueProblem } from './indexing-rule.js';
import { nestedRepetition } from './safe-regex.js';

export type RuleInput = Omit<IndexingRule, 'id' | 'lastModifiedDate' | 'description' | 'ruleType'> & {
  description?: string;
  ruleType?: 'IGNORE';
};

interface RuleRow {
  id: string;
  name: string;
  description: string;
  source: string;
  attribute: string;
  rule_type: string;
  values: unknown;
  last_modified: string;
}

const TABLE = 'connector_rules';

const fromRow = (r: RuleRow): IndexingRule => ({
  id: r.id,
  name: r.name,
  description: r.description,
  source: r.source,
  attribute: r.attribute,
  ruleType: r.rule_type as 'IGNORE',
  values: readJson<string[]>(r.values, { table: TABLE, column: 'values', row: r.id }),
  lastModifiedDate: r.last_modified,
});

/** Indexing rules, stored; runs read the rules of their source when they begin. */
export class RuleStore {
  constructor(private readonly db: Database) {}

  async list(source?: string): Promise<IndexingRule[]> {
    const query = this.db<RuleRow>(TABLE).select().orderBy('name').orderBy('id');
    if (source !== undefined) query.where({ source });
    return ((await query) as RuleRow[]).map(fromRow);
  }

  async find(id: string): Promise<IndexingRule | undefined> {
    const row = (await this.db<RuleRow>(TABLE).where({ id }).first()) as RuleRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  async get(id: string): Promise<IndexingRule> {
    const rule = await this.find(id);
    if (!rule) throw connectorErrors.ruleNotFound(id);
    return rule;
  }

  async create(input: RuleInput): Promise<IndexingRule> {
    const rule = this.check(randomUUID(), input);
    await this.db(TABLE).insert(this.toRow(rule));
    return rule;
  }

  async update(id: string, input: RuleInput): Promise<IndexingRule> {
    await this.get(id);
    const rule = this.check(id, input);
    await this.db(TABLE).where({ id }).update(this.toRow(rule));
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

  private toRow(rule: IndexingRule): RuleRow {
    return {
      id: rule.id,
      name: rule.name,
      description: rule.description,
      source: rule.source,
      attribute: rule.attribute,
      rule_type: rule.ruleType,
      values: writeJson(rule.values),
      last_modified: rule.lastModifiedDate,
    };
  }
}
