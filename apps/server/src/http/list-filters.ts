import { checkFilterBounds, LIST_FILTERS, parseListFilters } from '@imaging-inbox/contract';
import type { ListFilter } from '@imaging-inbox/contract';
import { invalidField } from '../domain/errors.js';
import type { Params } from './params.js';

/** Lists that check their filter fields themselves (the study search's table), after the shared bounds. */
const OWN_FIELDS = new Set(['study/list', 'study/count']);

/**
 * The `filter.<field>.<condition>` parameters of a list call, read by the one grammar every list
 * shares (packages/contract list-filters.ts) against the list's fields: an unknown field or
 * condition, too many filters or a too-long value is INVALID_FIELD naming it, before the call does
 * anything. A call that is not a list gets none (its own schema reads any filter it takes).
 */
export function listFiltersOf(path: string, params: Params): ListFilter[] {
  const spec = LIST_FILTERS[path];
  const parsed = spec
    ? parseListFilters(params, spec)
    : OWN_FIELDS.has(path)
      ? checkFilterBounds(params)
      : undefined;
  if (!parsed) return [];
  if (!parsed.ok) throw invalidField(parsed.key, parsed.why);
  return parsed.filters;
}
