import type { Field, Operator, Site } from '../store/site-types.js';

export interface FieldOperators {
  /** Between this facet and the others. */
  facetType: Operator;
  /** Between the selected values of this facet. */
  itemType: Operator;
}

/** Request operator first, then the field's own setting, then the site's (after the original). */
export function resolveOperators(
  site: Site,
  field: Field | undefined,
  requestFacetType: Operator | null,
  requestItemType: Operator | null,
): FieldOperators {
  return {
    facetType: requestFacetType ?? (field && field.facetType !== 'DEFAULT' ? field.facetType : site.facetType),
    itemType:
      requestItemType ?? (field && field.facetItemType !== 'DEFAULT' ? field.facetItemType : site.facetItemType),
  };
}
