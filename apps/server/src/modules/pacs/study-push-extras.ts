import type { StudyExtra, StudyExtrasContributor } from '../../kernel/study-extras.js';
import { presentPush } from './study-push.service.js';
import type { StudyPushesRepository } from './study-pushes.repository.js';

/** A study answer's `study_push_status`: every push attempt of the study, newest first. */
export function studyPushExtras(pushes: Pick<StudyPushesRepository, 'ofPage'>): StudyExtrasContributor {
  return {
    async of(studyUuids) {
      const out = new Map<string, StudyExtra>();
      for (const [uuid, attempts] of await pushes.ofPage(studyUuids)) {
        out.set(uuid, {
          pushStatus: attempts.map((p) => ({
            ...presentPush(p),
            updated: new Date(Number(p.updated)).toISOString(),
          })),
        });
      }
      return out;
    },
  };
}
