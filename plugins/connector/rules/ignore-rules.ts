import { compileRuleValue, type IndexingRule } from './indexing-rule.js';

export interface IgnoreMatcher {
  /** The name of the first rule that ignores the document, or null. */
  match(attributes: Record<string, unknown>): string | null;
}

/**
 * IGNORE rules of one source, compiled once per run. A list attribute is ignored when any of its
 * values matches; objects are tested as their JSON text.
 */
export function ignoreMatcher(rules: IndexingRule[]): IgnoreMatcher {
  const compiled = rules
    .filter((r) => r.ruleType === 'IGNORE')
    .map((r) => ({ name: r.name, attribute: r.attribute, patterns: r.values.map(compileRuleValue) }));
  const text = (v: unknown) =>
    typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
  return {
    match(attributes) {
      for (const rule of compiled) {
        const value = attributes[rule.attribute];
        if (value === undefined || value === null) continue;
        const values = Array.isArray(value) ? value : [value];
        if (values.some((v) => rule.patterns.some((p) => p.test(text(v))))) return rule.name;
      }
      return null;
    },
  };
}
