import type { Study, StudyCustomFieldValue } from '@imaging-inbox/contract';

/** What one module adds to one study's answer. */
export interface StudyExtra {
  /** The study's push attempts, newest first, as `study_push_status` lists them. */
  pushStatus?: Study['study_push_status'];
  /** Computed fields listed after the stored custom fields; a stored field of the same name wins. */
  customFields?: StudyCustomFieldValue[];
}

/** A module's part of a page of study answers, read in a query or two for the whole page. */
export interface StudyExtrasContributor {
  of(studyUuids: readonly string[]): Promise<ReadonlyMap<string, StudyExtra>>;
}

/**
 * The study answer reads what workflows know of a study (its pushes, its live nomination) through
 * the contributors modules register here, so the kernel's study tables and the study presenter
 * never import a module (decision 0059).
 */
export class StudyExtrasRegistry {
  private readonly contributors = new Map<string, StudyExtrasContributor>();

  register(name: string, contributor: StudyExtrasContributor): void {
    if (this.contributors.has(name)) throw new Error(`Study extras contributor ${name} registered twice`);
    this.contributors.set(name, contributor);
  }

  /** Every contributor's extras of these studies, merged per study in registration order. */
  async of(studyUuids: readonly string[]): Promise<Map<string, StudyExtra>> {
    const merged = new Map<string, StudyExtra>();
    if (!studyUuids.length || !this.contributors.size) return merged;
    const parts = await Promise.all([...this.contributors.values()].map((c) => c.of(studyUuids)));
    for (const part of parts) {
      for (const [uuid, extra] of part) {
        const into = merged.get(uuid) ?? {};
        if (extra.pushStatus) into.pushStatus = [...(into.pushStatus ?? []), ...extra.pushStatus];
        if (extra.customFields) into.customFields = [...(into.customFields ?? []), ...extra.customFields];
        merged.set(uuid, into);
      }
    }
    return merged;
  }
}

/** The stored custom fields, then the contributed ones no stored field of the same name hides. */
export function withContributedFields(
  stored: StudyCustomFieldValue[] | undefined,
  contributed: StudyCustomFieldValue[] | undefined,
): StudyCustomFieldValue[] {
  const list = stored ?? [];
  if (!contributed?.length) return list;
  const names = new Set(list.filter((f) => !('uuid' in f && f.uuid)).map((f) => f.name));
  return [...list, ...contributed.filter((f) => !names.has(f.name))];
}
