import fsp from 'node:fs/promises';
import {
  dicomPatientName,
  latestTodayIso,
  MESSAGES,
  patientFormErrors,
  WRAP_MAX_FILES,
  type PatientForm,
  type WrapUploadAnswer,
} from '@imaging-inbox/contract';
import { formatDA, formatTM } from '../../dicom/dates.js';
import { derivedUid, isOurUid, isValidUid, newUid } from '../../dicom/index.js';
import {
  checkWrapInput,
  prepareWrapContent,
  sniffKind,
  WrapInputError,
  type InMemoryKind,
} from '../../dicom/wrap-input.js';
import { inspectVideo, type CheckedVideo } from '../../dicom/wrap-video-input.js';
import { wrapVideo } from '../../dicom/wrap-video.js';
import { wrapImage, wrapPdf, type WrapStudy } from '../../dicom/wrap.js';
import { DomainError, invalidField, notPermitted } from '../../domain/errors.js';
import type { IngestService } from '../../ingest/ingest.service.js';
import { LINK_SOURCE_KIND, linkIndexTarget } from '../../ingest/link-source.js';
import type { GroupAccess } from '../../policies/index.js';
import type { SettingsRepository } from '../../repositories/settings.repository.js';
import type { StudiesRepository } from '../../repositories/studies.repository.js';
import type { BlobStore, TempFile } from '../../storage/blob-store.js';

/** The account's share-code setting that turns the non-DICOM upload on (SPEC.md section 3). */
export const WRAPPING_SETTING = 'enable_dicom_wrapping';

/** An uploaded file, already streamed to a temp file by the route. */
export interface ReceivedFile {
  filename: string;
  temp: TempFile;
}

/** A received file as the first pass recognised it: a checked video, or a kind read in memory. */
type Recognised = { kind: 'mp4'; video: CheckedVideo } | { kind: InMemoryKind };

export interface WrapRequest {
  /** The group the study goes into (a member's group, or the group a request-study link names). */
  group: Pick<GroupAccess, 'accountId' | 'namespaceId'>;
  /** The uploading user; null for the outside party of a link, who has no account. */
  userId: string | null;
  ip: string | null;
  fields: Record<string, string | undefined>;
  files: ReceivedFile[];
  /**
   * Set when the files come through a request-study link: the study is marked as the link's (source
   * `link`, source AE `LINK`, the link named in the audit event) and each call makes a new study,
   * since the outside party must not add files to a study already in the group.
   */
  link?: { uuid: string };
}

export interface WrapDeps {
  settings: SettingsRepository;
  studies: StudiesRepository;
  ingest: IngestService;
  blobs: BlobStore;
  now?: () => number;
}

/**
 * The non-DICOM upload: checks the account allows it, validates the patient and exam form with the
 * web form's own rules, recognises every file, writes each as a DICOM instance into a temp file and
 * only then sends them all through the single ingest pipeline under one study. A bad field or a bad
 * file refuses the whole call before anything is stored.
 */
export class WrapService {
  private readonly now: () => number;
  constructor(private readonly deps: WrapDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The group's own setting (namespace/settings) when it has one, else its account's. */
  async isEnabled(accountId: string, namespaceId: string): Promise<boolean> {
    const own = await this.deps.settings.get(`namespace:${namespaceId}`, WRAPPING_SETTING);
    const value = own ?? (await this.deps.settings.get(`account:${accountId}`, WRAPPING_SETTING));
    return value === '1';
  }

  async wrap(request: WrapRequest): Promise<WrapUploadAnswer> {
    const built: TempFile[] = [];
    try {
      if (!(await this.isEnabled(request.group.accountId, request.group.namespaceId)))
        throw notPermitted(WRAPPING_SETTING);
      const form = validateForm(request.fields, latestTodayIso(this.now()));
      if (request.files.length === 0) throw new DomainError('MISSING_FIELDS', 'file', ['file']);
      if (request.files.length > WRAP_MAX_FILES) {
        throw invalidField('file', `at most ${WRAP_MAX_FILES} files in one call`);
      }
      const { studyUid, firstSeries } = await this.targetStudy(request, form);

      // First pass: recognise every file cheaply, so a wrong one refuses the call before any work.
      const recognised: Recognised[] = [];
      for (const file of request.files) {
        const video = await this.inspectIfVideo(file);
        recognised.push(
          video
            ? { kind: 'mp4', video }
            : { kind: await this.inspect(file, (bytes) => checkWrapInput(bytes)) },
        );
      }

      const at = new Date(this.now());
      const study: WrapStudy = {
        patientName: dicomPatientName(form),
        patientId: form.patientMRN,
        patientSex: form.patientGender,
        patientBirthDate: form.patientDOB.replaceAll('-', ''),
        studyInstanceUid: studyUid,
        studyDate: form.studyDate.replaceAll('-', ''),
        studyTime: form.studyTime ? `${form.studyTime.replace(':', '')}00` : '',
        studyDescription: form.studyDescription,
      };
      const instances: Omit<WrapUploadAnswer['instances'][number], 'duplicate'>[] = [];
      // Second pass: write each instance to a temp file; one file in memory at a time.
      for (const [index, file] of request.files.entries()) {
        const found = recognised[index]!;
        // Derived from the study and the file's bytes (decision 0058): the same file sent again into
        // its study (a retry after a lost answer) gets the same UIDs and is answered as a duplicate.
        const instance = {
          seriesInstanceUid: derivedUid('wrap-series', studyUid, file.temp.sha256),
          seriesNumber: firstSeries + index,
          sopInstanceUid: derivedUid('wrap-instance', studyUid, file.temp.sha256),
          title: file.filename,
          contentDate: formatDA(at),
          contentTime: formatTM(at),
        };
        if (found.kind === 'mp4') {
          // Streamed from the upload's temp file into the DICOM temp file: never whole in memory.
          built.push(
            await this.deps.blobs.writeTemp(
              wrapVideo(study, instance, {
                ...found.video,
                mp4Path: file.temp.path,
                mp4Size: file.temp.size,
              }),
            ),
          );
        } else {
          const { kind } = found;
          const dicom = await this.inspect(file, async (bytes) => {
            const content = await prepareWrapContent(bytes, kind);
            return content.kind === 'pdf'
              ? wrapPdf(study, instance, content.pdf)
              : wrapImage(study, instance, content.image);
          });
          const { bytes: _inMemory, ...onDisk } = await this.deps.blobs.writeTemp(dicom);
          built.push(onDisk);
        }
        instances.push({
          filename: file.filename,
          kind: found.kind,
          sop_class_uid: '',
          sop_instance_uid: instance.sopInstanceUid,
          series_uid: instance.seriesInstanceUid,
        });
      }

      // Every file is ready: now they go through the ingest pipeline, as any DICOM upload does.
      const answer: WrapUploadAnswer = { status: 'OK', study_uid: studyUid, study_uuid: '', instances: [] };
      while (built.length) {
        const temp = built.shift()!;
        const meta = instances[answer.instances.length]!;
        const result = await this.deps.ingest.ingestTemp(
          temp,
          request.link
            ? linkIndexTarget(request.group)
            : { accountId: request.group.accountId, namespaceId: request.group.namespaceId },
          {
            kind: request.link ? LINK_SOURCE_KIND : 'wrap',
            userId: request.userId,
            ip: request.ip,
            detail: {
              filename: meta.filename,
              foundkind: meta.kind,
              ...(request.link ? { link_id: request.link.uuid } : {}),
            },
          },
        );
        answer.study_uuid = result.studyUuid;
        answer.instances.push({
          ...meta,
          sop_class_uid: result.parsed.sopClassUid,
          duplicate: result.duplicate,
        });
      }
      return answer;
    } finally {
      await Promise.all(built.map((t) => this.deps.blobs.discard(t)));
    }
  }

  /** A new study UID, or the one given to add more files to a study this form already created. */
  private async targetStudy(request: WrapRequest, form: PatientForm) {
    const given = request.fields['study_uid']?.trim();
    if (!given) return { studyUid: newUid(), firstSeries: 1 };
    if (request.link) throw invalidField('study_uid', 'a link upload always makes a new study');
    // Only UIDs we minted (decision 0058): a wrapped file never joins a study that came from a
    // modality, even one whose UIDs are under 2.25 too.
    if (!isValidUid(given) || !isOurUid(given)) throw invalidField('study_uid', 'not a wrap study UID');
    const existing = await this.deps.studies.findInNamespace(request.group.namespaceId, given);
    if (!existing) return { studyUid: given, firstSeries: 1 };
    if (
      existing.deleted !== null ||
      existing.patientid !== form.patientMRN ||
      existing.patient_name !== dicomPatientName(form)
    ) {
      throw invalidField('study_uid', 'the study belongs to another patient');
    }
    return { studyUid: given, firstSeries: existing.series_count + 1 };
  }

  /**
   * An MP4 (an ISO-BMFF `ftyp` box at the start, whatever the file is called) checked from its temp
   * file by its box tree; null for any other file. Only the first bytes are read to tell.
   */
  private async inspectIfVideo(file: ReceivedFile): Promise<CheckedVideo | null> {
    let head = file.temp.bytes?.subarray(0, 4096);
    if (!head) {
      const handle = await fsp.open(file.temp.path, 'r');
      try {
        const buffer = new Uint8Array(Math.min(4096, file.temp.size));
        await handle.read(buffer, 0, buffer.length, 0);
        head = buffer;
      } finally {
        await handle.close();
      }
    }
    if (sniffKind(head) !== 'mp4') return null;
    return this.refusalOf(file, () => inspectVideo(file.temp.path, file.temp.size));
  }

  /** Reads an uploaded file and runs `use`; a recognition problem becomes the call's error. */
  private async inspect<T>(file: ReceivedFile, use: (bytes: Uint8Array) => T | Promise<T>): Promise<T> {
    const bytes = file.temp.bytes ?? new Uint8Array(await fsp.readFile(file.temp.path));
    return this.refusalOf(file, () => use(bytes));
  }

  /** Runs `check`; a WrapInputError becomes the call's answer, naming the file in error_subtype. */
  private async refusalOf<T>(file: ReceivedFile, check: () => T | Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      if (error instanceof WrapInputError) {
        throw new DomainError(error.code, file.filename, error.detail);
      }
      throw error;
    }
  }
}

/**
 * The shared form schema on the server's today. An empty mandatory field answers MISSING_FIELDS
 * (subtype: those fields), any other rule INVALID_FIELD (subtype: the first field); error_data maps
 * every field to the message the form shows.
 */
function validateForm(fields: Record<string, string | undefined>, today: string): PatientForm {
  const result = patientFormErrors(fields, today);
  if (result.ok) return result.form;
  const entries = Object.entries(result.errors);
  const missing = entries.filter(([, message]) => message === MESSAGES.formEnterValue).map(([f]) => f);
  if (missing.length) throw new DomainError('MISSING_FIELDS', missing.join(','), result.errors);
  throw new DomainError('INVALID_FIELD', entries[0]![0], result.errors);
}
