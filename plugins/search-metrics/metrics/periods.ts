/** The periods of the top-terms and zero-result-terms reports, as they appear in their paths. */
export const PERIODS = ['today', 'this-week', 'this-month', 'all-time'] as const;
export type Period = (typeof PERIODS)[number];

/** A span of epoch milliseconds, `to` excluded; `null` bounds are open. */
export interface Span {
  from: number | null;
  to: number | null;
}

const DAY = 86_400_000;

/**
 * The period that contains `now`, and the one before it, in UTC: today from midnight, this week from
 * Monday, this month from the 1st. All time has no previous period.
 */
export function periodSpans(period: Period, now: number): { current: Span; previous: Span | null } {
  const date = new Date(now);
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  switch (period) {
    case 'today':
      return { current: { from: midnight, to: null }, previous: { from: midnight - DAY, to: midnight } };
    case 'this-week': {
      const monday = midnight - ((date.getUTCDay() + 6) % 7) * DAY;
      return { current: { from: monday, to: null }, previous: { from: monday - 7 * DAY, to: monday } };
    }
    case 'this-month': {
      const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
      return {
        current: { from: first, to: null },
        previous: { from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1), to: first },
      };
    }
    case 'all-time':
      return { current: { from: null, to: null }, previous: null };
  }
}
