import type { StudyExtra, StudyExtrasContributor } from '../../kernel/study-extras.js';
import type { NominationsRepository } from './nominations.repository.js';

/**
 * The nominator's study reads its live nomination's PACS status from its copy in the gatekeeper
 * group (the newest nomination): its card shows nominated, queued, sent or failed, through two
 * computed custom fields.
 */
export function nominationExtras(
  nominations: Pick<NominationsRepository, 'liveOfPage'>,
): StudyExtrasContributor {
  return {
    async of(studyUuids) {
      const out = new Map<string, StudyExtra>();
      for (const r of await nominations.liveOfPage(studyUuids)) {
        if (out.has(r.study_uuid)) continue;
        out.set(r.study_uuid, {
          customFields: [
            { name: 'nominated_at', value: new Date(Number(r.created)).toISOString() },
            { name: 'nomination_push_status', value: r.push_status ?? '' },
          ],
        });
      }
      return out;
    },
  };
}
