import type { AuditAction } from '@imaging-inbox/contract';
import type {
  DestinationCheckFailedData,
  StudyApproveRequest,
  StudyProcessAnswer,
  StudyProcessRequest,
} from '@imaging-inbox/contract';
import { NOMINATION_PRIORITIES, isoDateOf, orderWrittenValues } from '@imaging-inbox/contract';
import type { Updateable } from 'kysely';
import type { StudyTable } from '../../db/schema.js';
import { DomainError, invalidField, missingFields, notFound } from '../../domain/errors.js';
import { NOMINATION_PROCESS_JOB, PUSH_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { PacsClient } from '../pacs/index.js';
import { SearchNotOffered } from '../pacs/index.js';
import { peerOf } from '../pacs/index.js';
import type { CallingAeOf } from '../pacs/index.js';
import type { Caller } from '../../policies/index.js';
import { requireGatekeeperProcess } from './nominations.js';
import { LOCK_TTL_MS } from '../../policies/study-lock.js';
import type { DestinationRow, DestinationsRepository } from '../pacs/index.js';
import type { NominationProcessRepository } from './nomination-process.repository.js';
import type { NominationsRepository } from './nominations.repository.js';
import type { OrdersRepository } from './orders.repository.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import { searchKey } from '../../repositories/study-search.sql.js';
import type { StudyPushesRepository } from '../pacs/index.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { GroupConfigService } from '../admin/index.js';
import { presentNomination } from './nomination.service.js';
import type { NominationFileEditor } from './nomination-ports.js';
import { newUuid } from '../../security/tokens.js';

interface Deps {
  nominations: NominationsRepository;
  process: NominationProcessRepository;
  /** The account's stored orders, which an `order_id` names. */
  orders: Pick<OrdersRepository, 'find'>;
  studies: StudiesRepository;
  pushes: StudyPushesRepository;
  destinations: DestinationsRepository;
  configs: GroupConfigService;
  fileEditor: NominationFileEditor;
  pacs: Pick<PacsClient, 'findStudies'>;
  /** The AE title each destination is called as. */
  callingAes: CallingAeOf;
  jobs: JobQueue;
  audit: AuditService;
  now?: () => number;
  /** How long after acceptance the recovery job finishes what the call did not (default 5 min). */
  recoveryDelayMs?: number;
}

/** A C-FIND failure status (PS3.4 C.4.1.1.4) meaning the PACS answers no such query at all. */
const SOP_CLASS_NOT_SUPPORTED = 0x0122;

/**
 * Send to PACS stopped because its destination could not say whether it already holds the study:
 * its name and the status it answered (null: no DICOM answer), for the web to say in words.
 */
function checkFailed(destination: DestinationRow, status: string | null): DomainError {
  const data: DestinationCheckFailedData = {
    destination_id: destination.uuid,
    destination_name: destination.name,
    status,
  };
  return new DomainError('DESTINATION_CHECK_FAILED', 'destination_id', data);
}

/** How a worklist answer's order id starts (worklist-query.ts): it is not a stored order. */
const WORKLIST_ORDER_PREFIX = 'mwl:';

/** The exam fields processing may write: the request's attribute → the index column. */
const WRITTEN = {
  patient_name: 'patient_name',
  patientid: 'patientid',
  patient_birth_date: 'patient_birth_date',
  patient_sex: 'patient_sex',
  accession_number: 'accession_number',
  requested_procedure: 'study_description',
  referring_physician: 'referring_physician',
} as const satisfies Record<keyof StudyProcessRequest['attributes'], keyof StudyTable>;

/** The values a call writes, by request attribute (checked by the request schema, or an order's as stored). */
type WrittenValues = Partial<Record<keyof typeof WRITTEN, string>>;

/** The index columns kept upper-cased for search next to the value. */
const KEY_COLUMNS: Partial<Record<keyof StudyTable, keyof StudyTable>> = {
  patient_name: 'patient_name_key',
  patientid: 'patientid_key',
  study_description: 'study_description_key',
  referring_physician: 'referring_physician_key',
};

/** What study/process was asked, kept on the nomination until the push is queued. */
interface ProcessIntent {
  at: number;
  user: string;
  ip: string | null;
  destination_id: string;
  destination_name: string;
  priority: string;
  order_id: string | null;
  /** Index column → new value. */
  changes: Record<string, string>;
  changed: { field: string; from: string; to: string }[];
  /** Whether the destination was asked about the Study Instance UID (it may not take C-FIND). */
  uid_checked: boolean;
}

/**
 * Processing a nomination (SPEC.md section 4, Sending to PACS): lock → write the order's
 * attributes into the index and the stored files (Original Attributes Sequence, reason COERCE) →
 * record the destination → unlock → queue the push, in one call.
 *
 * Crash safety: the call is accepted in one transaction (what was asked is kept on the nomination,
 * the copy locked, a recovery job enqueued due a few minutes later). The rest (`finish`) is
 * idempotent: the file rewrite is deterministic (same values, same modification time, so the same
 * content-addressed blobs) and changes nothing once the values are there, and the push is queued
 * in one transaction guarded by the copy still being a nomination. If the server stops half-way,
 * the recovery job runs `finish` again; if it finished, the job finds nothing to do. The job is
 * held by this run of the process: restarted after that crash, the process runs it at once (main.ts);
 * another process runs it when it comes due. Meanwhile the nomination reads PROCESSING.
 */
export class NominationProcessService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async process(caller: Caller, input: StudyProcessRequest): Promise<StudyProcessAnswer> {
    const copy = requireGatekeeperProcess(caller, await this.deps.studies.findByUuid(input.uuid));
    const nomination = await this.deps.nominations.ofCopy(copy.uuid);
    if (!nomination) throw notFound('nomination');
    if (Number(nomination.rejected) === 1 || Number(nomination.must_approve) !== 1 || nomination.process) {
      throw new DomainError('ALREADY_PROCESSED', 'nomination');
    }
    const config = await this.deps.configs.gatekeeper(nomination.gatekeeper_id);
    if (!config) throw invalidField('uuid', 'PACS form not configured');
    if (!config.destinations.includes(input.destinationId)) {
      throw invalidField('destination_id', 'not a destination of this gatekeeper group');
    }
    const destination = await this.deps.destinations.find(input.destinationId);
    if (!destination || destination.account_id !== copy.account_id) throw notFound('destination');
    if (Number(destination.can_push) !== 1) {
      throw invalidField('destination_id', 'this destination takes no pushes');
    }
    if (!(await this.deps.pushes.instancesOfStudy(copy.uuid)).length) {
      throw invalidField('uuid', 'the study has no instances');
    }
    const attributes = await this.attributesOf(copy, input);
    const { changes, changed } = this.changesFor(copy, attributes);
    const patientid = changes['patientid'] ?? copy.patientid;
    const uidChecked = await this.refuseUidConflict(destination, copy.study_uid, patientid);

    const now = this.now();
    const intent: ProcessIntent = {
      at: now,
      user: caller.user.uuid,
      ip: caller.ip,
      destination_id: destination.uuid,
      destination_name: destination.name,
      priority: input.priority,
      order_id: input.orderId,
      changes,
      changed,
      uid_checked: uidChecked,
    };
    let recoveryJob = 0;
    const accepted = await this.deps.process.accept(
      {
        nomination: nomination.uuid,
        copy: copy.uuid,
        intent: JSON.stringify(intent),
        userId: caller.user.uuid,
        now,
        lapsedAt: now - LOCK_TTL_MS,
      },
      async (trx) => {
        recoveryJob = await this.deps.jobs.enqueue(
          NOMINATION_PROCESS_JOB,
          { nomination: nomination.uuid },
          {
            runAt: now + (this.deps.recoveryDelayMs ?? 5 * 60_000),
            dedupeKey: `nomination-process:${nomination.uuid}:${now}`,
            // Held by this run while the call finishes: a restart after a crash runs it at once.
            held: true,
          },
          trx,
        );
      },
    );
    if (accepted === 'taken') throw new DomainError('ALREADY_PROCESSED', 'nomination');
    if (accepted === 'locked') throw new DomainError('LOCKED', 'study');

    let pushUuid: string | null;
    try {
      pushUuid = await this.finish(nomination.uuid);
    } catch (error) {
      // Refused (a stored file unreadable…): back to Nominations, to be processed again. Anything
      // else (the database or the disk failing) is left to the recovery job to finish.
      if (error instanceof DomainError) {
        await this.deps.process.release(nomination.uuid, copy.uuid, this.now());
        await this.deps.jobs.cancel(recoveryJob);
      }
      throw error;
    }
    await this.deps.jobs.cancel(recoveryJob);
    const listed = await this.deps.nominations.ofCopy(copy.uuid);
    return { status: 'OK', nomination: presentNomination(listed!), push_uuid: pushUuid ?? '', changed };
  }

  /**
   * study/approve: the nomination processed as it was nominated (no attribute changed, its own
   * priority) to the gatekeeper group's destination; with several destinations the caller names one.
   * Every check of `process` applies (permissions, already processed, the destination's group).
   */
  async approve(caller: Caller, input: StudyApproveRequest): Promise<StudyProcessAnswer> {
    const copy = requireGatekeeperProcess(caller, await this.deps.studies.findByUuid(input.uuid));
    const nomination = await this.deps.nominations.ofCopy(copy.uuid);
    if (!nomination) throw notFound('nomination');
    let destinationId = input.destination_id;
    if (!destinationId) {
      const config = await this.deps.configs.gatekeeper(nomination.gatekeeper_id);
      if (!config) throw invalidField('uuid', 'PACS form not configured');
      if (config.destinations.length !== 1) throw missingFields(['destination_id']);
      destinationId = config.destinations[0]!;
    }
    const answers = JSON.parse(nomination.answers) as Record<string, unknown>;
    const asked = NOMINATION_PRIORITIES.find((p) => p === answers['priority']);
    return this.process(caller, {
      uuid: copy.uuid,
      destinationId,
      priority: asked ?? 'Routine',
      orderId: null,
      attributes: {},
    });
  }

  /**
   * Writes the asked attributes and queues the push, for a nomination accepted and not yet
   * queued; the push attempt's uuid, or null when there was nothing left to do. Safe to run again.
   */
  async finish(nominationUuid: string): Promise<string | null> {
    const nomination = await this.deps.nominations.find(nominationUuid);
    if (!nomination?.process || nomination.processed_at !== null || !nomination.copy_uuid) return null;
    const intent = JSON.parse(nomination.process) as ProcessIntent;
    const copy = await this.deps.studies.findByUuid(nomination.copy_uuid);
    if (!copy || copy.deleted !== null || Number(copy.must_approve) !== 1) return null;

    const changes: Updateable<StudyTable> = {};
    for (const [column, value] of Object.entries(intent.changes)) {
      (changes as Record<string, string>)[column] = value;
      const key = KEY_COLUMNS[column as keyof StudyTable];
      if (key) (changes as Record<string, string>)[key] = searchKey(value);
    }
    let files = 0;
    if (Object.keys(changes).length) {
      changes.updated = intent.at;
      ({ files } = await this.deps.fileEditor.apply(copy.uuid, changes, new Date(intent.at), {}, 'COERCE'));
    }

    const now = this.now();
    const instances = await this.deps.pushes.instancesOfStudy(copy.uuid);
    const push = {
      uuid: newUuid(),
      study_uuid: copy.uuid,
      account_id: copy.account_id,
      destination_id: intent.destination_id,
      destination_name: intent.destination_name,
      user_id: intent.user,
      status: 'I',
      reason: null,
      image_count: instances.length,
      created: now,
      updated: now,
    };
    const event = (objectId: string, action: AuditAction, detail: Record<string, unknown>) =>
      this.deps.audit.row(
        studyEvent(
          { userId: intent.user, ip: intent.ip },
          { uuid: objectId, account_id: copy.account_id },
          action,
          {
            nomination: nomination.uuid,
            ...detail,
          },
        ),
      );
    const sent = {
      destination_id: intent.destination_id,
      destination_name: intent.destination_name,
      priority: intent.priority,
      push: push.uuid,
      images: instances.length,
      study_uid_checked: intent.uid_checked,
    };
    const audits = [
      ...(intent.order_id ? [event(copy.uuid, 'ORDER_COMPARE', { order_id: intent.order_id })] : []),
      ...(intent.changed.length ? [event(copy.uuid, 'COERCE', { changed: intent.changed, files })] : []),
      event(copy.uuid, 'PROCESS', sent),
      event(nomination.study_uuid, 'PROCESS', { ...sent, gatekeeper_name: nomination.gatekeeper_name }),
    ];
    const fields: Record<string, string> = {
      priority: intent.priority,
      push_destination: intent.destination_name,
      source_study_id: nomination.study_uuid,
      ...(intent.order_id ? { order_id: intent.order_id } : {}),
    };
    const queued = await this.deps.process.queue(
      { nomination: nomination.uuid, copy: copy.uuid, now, fields, push, instances, audits },
      async (trx) => {
        await this.deps.jobs.enqueue(
          PUSH_JOB,
          { push: push.uuid, destination: intent.destination_id },
          { dedupeKey: `push:${push.uuid}` },
          trx,
        );
      },
    );
    if (!queued) return null;
    this.deps.jobs.kick();
    return push.uuid;
  }

  /** Gives the nomination back when the recovery job could not finish it either. */
  async giveUp(nominationUuid: string): Promise<void> {
    const nomination = await this.deps.nominations.find(nominationUuid);
    if (nomination?.copy_uuid)
      await this.deps.process.release(nomination.uuid, nomination.copy_uuid, this.now());
  }

  /**
   * What the call writes: with an `order_id` of one of the account's stored orders, that order's
   * values as the Order Comparison screen writes them (`orderWrittenValues`), under the attributes
   * the call typed. A worklist answer's id (`mwl:…`) names no stored order: only recorded.
   */
  private async attributesOf(copy: StudyRow, input: StudyProcessRequest): Promise<WrittenValues> {
    const id = input.orderId;
    if (!id || id.startsWith(WORKLIST_ORDER_PREFIX)) return input.attributes;
    const order = await this.deps.orders.find(id);
    // Another account's order is not found, as a made-up one.
    if (!order || order.account_id !== copy.account_id) throw notFound('order');
    const typed = Object.fromEntries(Object.entries(input.attributes).filter(([, v]) => v !== undefined));
    return { ...orderWrittenValues(order), ...typed };
  }

  /** The index columns to change (only those that differ), with each value before and after. */
  private changesFor(copy: StudyRow, attributes: WrittenValues) {
    const changes: Record<string, string> = {};
    const changed: ProcessIntent['changed'] = [];
    for (const [param, column] of Object.entries(WRITTEN) as [keyof typeof WRITTEN, keyof StudyTable][]) {
      const value = attributes[param];
      if (value === undefined) continue;
      const before = String(copy[column as keyof StudyRow] ?? '');
      if (value === before) continue;
      changes[column] = value;
      changed.push({ field: column, from: before, to: value });
    }
    const birth = changes['patient_birth_date'];
    if (birth && isoDateOf(birth) > new Date(this.now() + 14 * 3_600_000).toISOString().slice(0, 10)) {
      throw invalidField('patient_birth_date', 'may not be in the future');
    }
    return { changes, changed };
  }

  /**
   * Asks the destination (C-FIND, study level) whether it already holds this Study Instance UID
   * under another patient; sending then would file this exam's images under that patient there.
   * A destination that takes no searches is not asked (false), nor one whose PACS turns out to take
   * no C-FIND (a push-only PACS with Search ticked: the check cannot run, the send must not be lost
   * to it). One that gives no DICOM answer, or fails the query, stops the call with its name
   * (DESTINATION_CHECK_FAILED), as its answer is what makes the send safe.
   */
  private async refuseUidConflict(
    destination: DestinationRow,
    studyUid: string,
    patientid: string,
  ): Promise<boolean> {
    if (Number(destination.can_search) !== 1) return false;
    const held: { patientid: string; patient_name: string }[] = [];
    const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    let outcome;
    try {
      outcome = await this.deps.pacs.findStudies(
        await peerOf(destination, this.deps.callingAes),
        { StudyInstanceUID: studyUid, PatientID: '', PatientName: '' },
        (r) => {
          held.push({ patientid: text(r['PatientID']), patient_name: text(r['PatientName']) });
          return Promise.resolve();
        },
        { cap: 10 },
      );
    } catch (error) {
      if (error instanceof SearchNotOffered) return false;
      // No DICOM answer (the reason is in the server log, decision 0054) or the query cut off.
      throw checkFailed(destination, null);
    }
    if (outcome.status === SOP_CLASS_NOT_SUPPORTED) return false;
    if (outcome.status !== 0 && !outcome.truncated) {
      throw checkFailed(destination, outcome.status.toString(16).padStart(4, '0').toUpperCase());
    }
    const other = held.find((h) => h.patientid.toUpperCase() !== patientid.trim().toUpperCase());
    if (other) {
      throw new DomainError(
        'STUDY_UID_CONFLICT',
        `${destination.name} already holds this study under another patient (${other.patient_name || 'no name'}, MRN ${other.patientid || 'none'})`,
        { destination_id: destination.uuid, patientid: other.patientid, patient_name: other.patient_name },
      );
    }
    return true;
  }
}
