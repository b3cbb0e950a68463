/** An indexing rule as stored and served; a run applies the rules of its source (ignore-rules.ts). */
export interface IndexingRule {
  id: string;
  name: string;
  description: string;
  source: string;
  attribute: string;
  ruleType: 'IGNORE';
  values: string[];
  lastModifiedDate: string;
}

/** A regex of a rule value, anchored at the start of the attribute's value (as the original's lookingAt). */
export function compileRuleValue(value: string): RegExp {
  return new RegExp(`^(?:${value})`, 'u');
}

/** The problem with a rule value that is not a valid regular expression, or null. */
export function ruleValueProblem(value: string): string | null {
  try {
    compileRuleValue(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
