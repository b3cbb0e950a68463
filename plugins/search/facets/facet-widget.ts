import { ownValue } from '@vela/search-text';
import type { LinkTemplate } from '../links/link-template.js';
import { FILTER_PARAMS, fqField } from '../links/query-string.js';
import type { FacetGroup, FacetItem } from '../query/search-response.js';
import type { Field } from '../store/site-types.js';
import type { FacetQueryPlan } from './facet-query-plan.js';

export function facetLabel(field: Field, locale: string): string {
  return field.facetLabels[locale] ?? (field.facetName || field.name);
}

const unquote = (value: string) =>
  value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;

/**
 * widget.facet and widget.secondaryFacet. A facet already filtered with AND between its values is
 * hidden (there is nothing left to choose); with OR its values stay, each a toggle. Links follow the
 * original: choosing a value of an AND facet replaces that facet's value, of an OR facet adds to it.
 */
export function buildFacetGroups(
  plan: FacetQueryPlan,
  counts: Record<string, Array<[string, number]>>,
  base: LinkTemplate,
  locale: string,
): { facet: FacetGroup[]; secondaryFacet: FacetGroup[] } {
  const facet: FacetGroup[] = [];
  const secondaryFacet: FacetGroup[] = [];
  for (const { field, ops } of plan.facets) {
    const selected = plan.selectedByField.get(field.name) ?? [];
    if (selected.length > 0 && ops.itemType === 'AND') continue;
    const selectedValues = new Set(selected.map((fq) => unquote(fq.slice(fq.indexOf(':') + 1))));
    const items: FacetItem[] = [];
    // The search without this field's filters: the facet's clean-up link, and what an AND facet's values are
    // added to (choosing one replaces the field's filters).
    const unfiltered = base.unfiltered([field.name]);
    const addTo = ops.itemType === 'AND' ? unfiltered : base;
    for (const [value, count] of ownValue(counts, field.name) ?? []) {
      const isSelected = selectedValues.has(value);
      if (count === 0 && !field.showAllFacetItems && !(isSelected && ops.itemType === 'OR')) continue;
      if (value === '') continue; // from an index built before empty values were left out: no filter can name it
      const fq = `${field.name}:${value}`;
      const raw = selected.find((s) => unquote(s.slice(s.indexOf(':') + 1)) === value) ?? fq;
      const link = isSelected ? base.removeFq(raw) : addTo.addFq(fq);
      items.push({ count, link, label: value, filterQuery: fq, selected: isSelected });
    }
    if (items.length === 0) continue;
    const group: FacetGroup = {
      facets: items,
      label: { lang: locale, text: facetLabel(field, locale) },
      name: field.name,
      description: field.description || null,
      type: field.type,
      multiValued: field.multiValued,
      cleanUpLink: unfiltered.link(),
      selectedFilterQueries: selected,
      facetType: ops.facetType,
      facetItemType: ops.itemType,
    };
    (field.secondaryFacet ? secondaryFacet : facet).push(group);
  }
  return { facet, secondaryFacet };
}

/** widget.facetToRemove: one item per active facet filter, each linking to the search without it. */
export function buildFacetToRemove(plan: FacetQueryPlan, base: LinkTemplate): FacetGroup {
  const facets: FacetItem[] = [];
  const seen = new Set<string>();
  for (const [name, value] of base.params) {
    if (!FILTER_PARAMS.has(name) || seen.has(value)) continue;
    seen.add(value);
    const field = fqField(value);
    if (field === null || !plan.filteredFacetFields.has(field)) continue;
    facets.push({
      count: 0,
      link: base.removeFq(value),
      label: value.slice(field.length + 1).replace(/"/g, ''),
      filterQuery: value,
      selected: true,
    });
  }
  return {
    facets,
    label: { lang: 'en', text: 'Facets To Remove' },
    name: null,
    description: null,
    type: null,
    multiValued: false,
    cleanUpLink: null,
    selectedFilterQueries: null,
  };
}

export function selectedFilterQueries(plan: FacetQueryPlan, base: LinkTemplate): string[] {
  return [
    ...new Set(
      base.params
        .filter(([n, v]) => FILTER_PARAMS.has(n) && plan.filteredFacetFields.has(fqField(v) ?? ''))
        .map(([, v]) => v),
    ),
  ];
}

export function cleanUpFacetsLink(plan: FacetQueryPlan, base: LinkTemplate): string {
  return base.removeFqFields(plan.filteredFacetFields);
}
