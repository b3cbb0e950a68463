// One line per goal, in every benchmark, so `npm run bench` (scripts/bench/run-all.ts) can print them in one
// table: {"goal": what, "value": measured, "target": "<= 2", "holds": true}.

export type Comparison = '<' | '<=' | '>=' | '>';

export interface GoalLine {
  goal: string;
  value: number;
  target: string;
  holds: boolean;
}

export function goalLine(goal: string, value: number, comparison: Comparison, target: number): GoalLine {
  const holds =
    comparison === '<'
      ? value < target
      : comparison === '<='
        ? value <= target
        : comparison === '>='
          ? value >= target
          : value > target;
  return { goal, value: Math.round(value * 1000) / 1000, target: `${comparison} ${target}`, holds };
}

/** Print a goal line (JSON) and return it. */
export function printGoal(goal: string, value: number, comparison: Comparison, target: number): GoalLine {
  const line = goalLine(goal, value, comparison, target);
  console.log(JSON.stringify(line));
  return line;
}
