import type { Study, StudySearchRequest, StudySetRequest } from '@imaging-inbox/contract';
import {
  customFieldParam,
  dicomToIsoDate,
  examDateProblems,
  latestTodayIso,
  MESSAGES,
} from '@imaging-inbox/contract';
import type { Updateable } from 'kysely';
import type { StudyTable } from '../../db/schema.js';
import { DomainError, invalidField } from '../../domain/errors.js';
import type { Caller, StudyAccess } from '../../policies/index.js';
import { LOCK_TTL_MS, requireAccountMember, viewableNamespaces } from '../../policies/index.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { StudyExtrasRegistry } from '../../kernel/study-extras.js';
import { auditEvent, studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { CustomFieldChange, CustomFieldService } from '../admin/index.js';
import type { StudyFileEditor } from './study-file-editor.js';
import { lockHoldersOf, presentStudy } from './study.presenter.js';
import type { StudyActivityService } from './study-activity.service.js';
import type { StudyQuery } from '../../repositories/study-query.types.js';
import { buildStudyQuery } from '../../domain/study-query.js';
import { searchKey } from '../../repositories/study-search.sql.js';
import { toDicomDate } from '../../domain/time.js';

export interface StudyServiceDeps {
  studies: StudiesRepository;
  /** What modules add to a study's answer (push attempts, a live nomination's status). */
  extras: Pick<StudyExtrasRegistry, 'of'>;
  /** The access policy's study lookups. */
  access: StudyAccess;
  /** Names of lock holders, for the answers. */
  users: Pick<UsersRepository, 'namesOf'>;
  audit: AuditService;
  /** Writes edited patient and study attributes into the stored files with the index change. */
  fileEditor: StudyFileEditor;
  /** Checks study/set's `customfield-{uuid}` values against the account's definitions. */
  customFields: Pick<CustomFieldService, 'changes'>;
  /** The routing rules and HL7 messages that touched each study (its `routes` and `hl7`). */
  activity: Pick<StudyActivityService, 'of'>;
  engineFqdn: string;
  now?: () => number;
}

/** Patient and exam fields study/set may change, with the index key each one keeps in step. */
const EDITABLE_FIELDS = {
  patient_name: 'patient_name_key',
  patientid: 'patientid_key',
  study_description: 'study_description_key',
  referring_physician: 'referring_physician_key',
  patient_sex: null,
  patient_birth_date: null,
  accession_number: null,
  study_date: null,
  study_time: null,
} as const;

export class StudyService {
  private readonly now: () => number;
  constructor(private readonly deps: StudyServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Namespaces the query may read: those the caller can view, narrowed by phi_namespace. */
  private searchable(caller: Caller, q: StudyQuery): string[] {
    const viewable = viewableNamespaces(caller);
    if (!q.phiNamespaces) return viewable;
    const wanted = new Set(q.phiNamespaces);
    return viewable.filter((ns) => wanted.has(ns));
  }

  /** One page; with `with_count=1` the answer's page also carries the total, saving a study/count call. */
  async list(
    caller: Caller,
    request: StudySearchRequest,
  ): Promise<{ studies: Study[]; page: { number: number; rows: number; more: 0 | 1; total?: number } }> {
    const q = buildStudyQuery(request, caller.user.time_zone ?? 'UTC');
    const namespaces = this.searchable(caller, q);
    const [{ rows, more }, total] = await Promise.all([
      this.deps.studies.search(q, namespaces),
      request.withCount ? this.deps.studies.count(q, namespaces) : Promise.resolve(undefined),
    ]);
    const uuids = rows.map((r) => r.uuid);
    const [extras, contributed, holders, activity] = await Promise.all([
      this.deps.studies.extras(uuids),
      this.deps.extras.of(uuids),
      this.deps.users.namesOf(lockHoldersOf(rows, this.now())),
      this.deps.activity.of(caller, rows),
    ]);
    // A search is a read: an inbox re-asking the same search (polling, paging back and forth) is
    // audited once a minute, as repeated reads are (decision 0008), not with a synced commit each.
    await this.deps.audit.recordRead(
      auditEvent(
        caller,
        null,
        'STUDY_SEARCH',
        { type: 'study' },
        {
          detail: { filters: request.filters, returned: rows.length },
        },
      ),
    );
    return {
      studies: rows.map((row) =>
        presentStudy(
          caller,
          row,
          {
            tags: extras.tags.get(row.uuid),
            customFields: extras.customFields.get(row.uuid),
            contributed: contributed.get(row.uuid),
            holders,
            activity: activity.get(row.uuid),
          },
          this.deps.engineFqdn,
        ),
      ),
      page: { number: q.page, rows: q.rows, more: more ? 1 : 0, ...(total !== undefined ? { total } : {}) },
    };
  }

  async count(caller: Caller, request: StudySearchRequest): Promise<number> {
    const q = buildStudyQuery(request, caller.user.time_zone ?? 'UTC');
    return this.deps.studies.count(q, this.searchable(caller, q));
  }

  async get(caller: Caller, uuid: string): Promise<Study> {
    const row = await this.deps.access.byUuid(caller, uuid);
    const [extras, contributed, holders, activity] = await Promise.all([
      this.deps.studies.extras([uuid]),
      this.deps.extras.of([uuid]),
      this.deps.users.namesOf(lockHoldersOf([row], this.now())),
      this.deps.activity.of(caller, [row]),
    ]);
    await this.deps.audit.record(studyEvent(caller, row, 'STUDY_VIEW'));
    return presentStudy(
      caller,
      row,
      {
        tags: extras.tags.get(uuid),
        customFields: extras.customFields.get(uuid),
        contributed: contributed.get(uuid),
        holders,
        activity: activity.get(uuid),
      },
      this.deps.engineFqdn,
    );
  }

  async exists(caller: Caller, studyUid: string, accountId: string): Promise<boolean> {
    requireAccountMember(caller, accountId);
    // Only where the caller can look: a study in another group of the account is not theirs to know of.
    const exists = await this.deps.studies.existsIn(studyUid, viewableNamespaces(caller, accountId));
    await this.deps.audit.record(
      auditEvent(
        caller,
        accountId,
        'STUDY_EXISTS',
        { type: 'study' },
        { detail: { study_uid: studyUid, exists } },
      ),
    );
    return exists;
  }

  async set(caller: Caller, request: StudySetRequest): Promise<void> {
    const uuid = request.uuid;
    if (!uuid) throw new DomainError('STUDY_SET_PARAMS_EMPTY');
    // The lock answers LOCKED rather than NOT_PERMITTED, so the edit is judged on the group's flag.
    const row = await this.deps.access.byUuid(caller, uuid, {
      permissions: ['study_edit'],
      on: 'group',
      unlocked: true,
      now: this.now(),
      unseen: () => new DomainError('STUDY_SET_PARAMS_UUID_NOT_FOUND'),
    });

    const changes: Updateable<StudyTable> = {};
    const before: Record<string, string> = {};
    for (const [field, keyColumn] of Object.entries(EDITABLE_FIELDS) as [
      keyof typeof EDITABLE_FIELDS,
      string | null,
    ][]) {
      const raw = request.fields[field];
      if (raw === undefined) continue;
      const value = normaliseField(field, raw);
      if (value === row[field]) continue;
      before[field] = row[field];
      changes[field] = value;
      if (keyColumn) (changes as Record<string, string>)[keyColumn] = searchKey(value);
    }
    refuseBadExamDates(row, changes, latestTodayIso(this.now()));
    // Custom field values are checked against the account's definitions before anything is
    // written, so a bad value refuses the whole call and changes nothing.
    const fieldChanges = await this.deps.customFields.changes(
      row.account_id,
      request.customFields,
      await this.deps.studies.customFieldValues(uuid),
    );
    if (!Object.keys(changes).length && !fieldChanges.length) return;
    changes.updated = this.now();
    const values = Object.fromEntries(fieldChanges.map((c) => [c.uuid, c.after]));
    // The files change with the index (one transaction), so a download carries the new values.
    const { files } = await this.deps.fileEditor.apply(uuid, changes, new Date(changes.updated), values);
    // The history names a custom field as it was called at the time of the edit.
    const label = (c: CustomFieldChange) => customFieldParam(c.name);
    await this.deps.audit.record(
      studyEvent(caller, row, 'EDIT', {
        before: { ...before, ...Object.fromEntries(fieldChanges.map((c) => [label(c), c.before])) },
        after: {
          ...pick(changes, Object.keys(before)),
          ...Object.fromEntries(fieldChanges.map((c) => [label(c), c.after])),
        },
        customfields: fieldChanges.map((c) => c.uuid),
        files,
      }),
    );
  }

  /**
   * Takes, renews (a lock by its holder) or releases the lock. A lock that lapsed (LOCK_TTL_MS
   * after it was taken or renewed) is free to take.
   */
  async setLock(caller: Caller, uuid: string, locked: boolean): Promise<void> {
    // Whether someone else holds the lock is the lock call's own answer (LOCKED).
    const row = await this.deps.access.byUuid(caller, uuid, { permissions: ['study_edit'], on: 'group' });
    const now = this.now();
    const lapsedAt = now - LOCK_TTL_MS;
    const ok = locked
      ? await this.deps.studies.lock(uuid, caller.user.uuid, now, lapsedAt)
      : await this.deps.studies.unlock(uuid, caller.user.uuid, now, lapsedAt);
    if (!ok) throw new DomainError('LOCKED');
    await this.deps.audit.record(studyEvent(caller, row, locked ? 'LOCK' : 'UNLOCK'));
  }

  /**
   * An account admin releases whoever's lock (a browser that died mid-edit, a colleague gone
   * home); audited with the holder and since when. A study that is not locked answers OK.
   */
  async breakLock(caller: Caller, uuid: string): Promise<void> {
    const row = await this.deps.access.byUuid(caller, uuid, { accountAdmin: true });
    const before = await this.deps.studies.breakLock(uuid, this.now());
    if (!before) return;
    await this.deps.audit.record(
      studyEvent(caller, row, 'LOCK_BREAK', {
        holder: before.locked_by,
        since: before.locked_at === null ? null : new Date(before.locked_at).toISOString(),
      }),
    );
  }
}

export function normaliseField(field: string, raw: string): string {
  const value = raw.trim();
  if (field === 'patient_birth_date' || field === 'study_date') {
    if (value === '') return '';
    const date = toDicomDate(value);
    if (!date) throw invalidField(field, 'must be a date YYYYMMDD');
    return date;
  }
  if (field === 'patient_sex' && !['', 'M', 'F', 'O'].includes(value.toUpperCase())) {
    throw invalidField(field, 'must be M, F or O');
  }
  if (value.length > 256) throw invalidField(field, 'too long');
  return field === 'patient_sex' ? value.toUpperCase() : value;
}

/**
 * The Exchange form's date rules (the contract's examDateProblems), on the dates the study would
 * have: a date being set may not be ahead of today (the latest today anywhere), and the study may
 * not come before the birth. A date already stored and not being changed is not judged.
 */
function refuseBadExamDates(row: StudyRow, changes: Updateable<StudyTable>, today: string): void {
  const changed = (['patient_birth_date', 'study_date'] as const).filter((f) => changes[f] !== undefined);
  if (changed.length === 0) return;
  const dateOf = (f: 'patient_birth_date' | 'study_date') => dicomToIsoDate(String(changes[f] ?? row[f]));
  const problems = examDateProblems(
    { patient_birth_date: dateOf('patient_birth_date'), study_date: dateOf('study_date') },
    today,
  );
  for (const [field, message] of Object.entries(problems)) {
    const f = field as (typeof changed)[number];
    if (changed.includes(f) || message === MESSAGES.formStudyBeforeBirth) throw invalidField(field, message);
  }
}

function pick(source: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(source).filter(([k]) => keys.includes(k)));
}
