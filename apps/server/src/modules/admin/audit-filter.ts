import { parseTimeBound } from '@imaging-inbox/contract';
import type { ListFilter } from '@imaging-inbox/contract';
import type { AuditLogFilter } from '../../audit/audit.repository.js';
import { invalidField } from '../../domain/errors.js';

/**
 * An account log's filters (the shared grammar, LIST_FILTERS['audit/log']) as its database query:
 * users, the study or object, actions, and the time bounds (ms or ISO 8601; `gt`/`lt` exclusive).
 */
export function auditFilterOf(filters: readonly ListFilter[]): AuditLogFilter {
  const filter: AuditLogFilter = {};
  for (const { key, field, condition, values } of filters) {
    switch (field) {
      case 'user_id':
        filter.userIds = values;
        break;
      case 'study_id':
      case 'object_id':
        filter.objectId = values[0];
        break;
      case 'action':
        filter.actions = values;
        break;
      case 'at': {
        const at = parseTimeBound(values[0] ?? '');
        if (at === undefined) throw invalidField(key, 'must be a time (ms or ISO 8601)');
        if (condition === 'ge') filter.from = at;
        else if (condition === 'gt') filter.from = at + 1;
        else if (condition === 'le') filter.to = at;
        else filter.to = at - 1;
        break;
      }
    }
  }
  return filter;
}
