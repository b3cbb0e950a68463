import type { SpotlightStore, SpotlightWidgetItem } from '../spotlights/spotlight-store.js';
import type { SearchPlan } from './plan.js';

/** The spotlights a searched text matches, and the places their documents take in the results. */
export interface SpotlightMatch {
  readonly items: SpotlightWidgetItem[];
  /**
   * Whether their documents take slots in the results (the site's spotlightWithResults; never in groups or with
   * rows=0).
   */
  readonly injecting: boolean;
  /** Absolute slots (1-based, across pages) of the documents, in position order; empty when not injecting. */
  readonly slots: readonly number[];
  /** How many of those slots come before the page: the page's organic results start that much earlier. */
  readonly before: number;
}

/** Spotlights whose terms the searched text contains; none for a `*` search. */
export function matchSpotlights(plan: SearchPlan, store: SpotlightStore | undefined, searched: string): SpotlightMatch {
  const { site } = plan.config;
  const items = plan.text === null || !store ? [] : store.match(site.id, plan.locale, searched);
  const injecting = site.spotlightWithResults && items.length > 0 && !plan.group && plan.rows > 0;
  const slots = injecting ? spotlightSlots(items) : [];
  return { items, injecting, slots, before: slots.filter((slot) => slot < plan.firstSlot).length };
}

/** Each document at its position, or right after the one before when two ask for the same place. */
function spotlightSlots(items: readonly SpotlightWidgetItem[]): number[] {
  const slots: number[] = [];
  for (const item of items) slots.push(Math.max(item.position, (slots[slots.length - 1] ?? 0) + 1));
  return slots;
}
