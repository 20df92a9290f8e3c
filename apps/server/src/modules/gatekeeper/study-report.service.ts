import type { StudyReport } from '@imaging-inbox/contract';
import dicomParser from 'dicom-parser';
import type { DataSet } from 'dicom-parser';
import { formatDA, formatTM } from '../../dicom/dates.js';
import { newUid } from '../../dicom/index.js';
import { basicTextSr } from '../../dicom/report-sr.js';
import { wrapPdf, type WrapInstance, type WrapStudy } from '../../dicom/wrap.js';
import { checkWrapInput, WrapInputError } from '../../dicom/wrap-input.js';
import { DomainError, internal, invalidField, missingFields } from '../../domain/errors.js';
import type { IngestService } from '../../ingest/ingest.service.js';
import type { Caller, StudyAccess } from '../../policies/index.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { Hl7ResultsRepository } from './hl7-results.repository.js';
import type { ReportInstanceRow, StudyReportsRepository } from './study-reports.repository.js';
import { SR_CLASS_PREFIX } from './study-reports.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';

interface Deps {
  access: StudyAccess;
  reports: StudyReportsRepository;
  results: Hl7ResultsRepository;
  blobs: Pick<BlobStore, 'read' | 'writeTemp'>;
  ingest: Pick<IngestService, 'ingestTemp'>;
  audit: Pick<AuditService, 'record'>;
  accounts: Pick<AccountsRepository, 'findAccount'>;
  log?: (line: string) => void;
  now?: () => number;
}

/** A report to add: text, or the bytes of a PDF. */
export interface NewReport {
  title: string;
  final: boolean;
  text?: string;
  pdf?: Uint8Array;
}

/**
 * A study's reports (SPEC.md, Reports tab): its DICOM SR and encapsulated PDF instances, read from
 * their files (title, completion, author, content time), and the HL7 ORU^R01 results received for
 * its accession number. A report is 'Preliminary' until final: an SR whose Completion Flag is
 * COMPLETE and Verification Flag VERIFIED, an HL7 result with OBR-25 F or C.
 */
export class StudyReportService {
  constructor(private readonly deps: Deps) {}

  async list(caller: Caller, studyUuid: string): Promise<StudyReport[]> {
    const study = await this.deps.access.byUuid(caller, studyUuid, { permissions: ['study_view'] });
    const [instances, results] = await Promise.all([
      this.deps.reports.instances(study.uuid),
      study.accession_number
        ? this.deps.results.ofAccession(study.account_id, study.accession_number)
        : Promise.resolve([]),
    ]);
    const reports: StudyReport[] = [
      ...(await Promise.all(instances.map((row) => this.fromInstance(row)))),
      ...results.map((r): StudyReport => ({
        id: r.uuid,
        kind: 'HL7',
        status: r.status === 'Final' ? 'Final' : 'Preliminary',
        author: r.author,
        time: r.observed === null ? Number(r.updated) : Number(r.observed),
        title: r.title,
        text: r.text,
        series_uid: null,
      })),
    ];
    return reports.sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
  }

  /**
   * study/report/add: the report written as a new series of the study (a Basic Text SR for text, an
   * Encapsulated PDF for a PDF) with the study's current patient and study attributes, stored through
   * the ingest pipeline like any other instance, so it is pushed and downloaded with the study. The
   * input is checked before anything is written; a refusal leaves the study as it was.
   */
  async add(caller: Caller, studyUuid: string, report: NewReport): Promise<StudyReport> {
    const study = await this.deps.access.byUuid(caller, studyUuid, {
      permissions: ['study_report_add'],
      deleted: 'refused',
    });
    const text = report.text?.trim() ?? '';
    if (report.pdf === undefined && text === '') throw missingFields(['text']);
    if (report.pdf !== undefined && text !== '')
      throw invalidField('text', 'a report is text or a PDF, not both');
    if (report.pdf !== undefined) checkPdf(report.pdf);

    const at = new Date((this.deps.now ?? Date.now)());
    const title = report.title.trim() || (report.pdf ? 'PDF report' : 'Report');
    const instance: WrapInstance = {
      seriesInstanceUid: newUid(),
      seriesNumber: Number(study.series_count) + 1,
      sopInstanceUid: newUid(),
      title,
      contentDate: formatDA(at),
      contentTime: formatTM(at),
    };
    const author = [caller.user.last_name, caller.user.first_name].join('^').replace(/\^$/, '');
    const dicom = report.pdf
      ? wrapPdf(studyAttributes(study), instance, report.pdf, {
          AccessionNumber: study.accession_number,
          ReferringPhysicianName: study.referring_physician,
          NameOfPhysiciansReadingStudy: author,
          VerificationFlag: report.final ? 'VERIFIED' : 'UNVERIFIED',
        })
      : basicTextSr(studyAttributes(study), instance, {
          text,
          final: report.final,
          author,
          accessionNumber: study.accession_number,
          referringPhysician: study.referring_physician,
          organization: (await this.deps.accounts.findAccount(study.account_id))?.name ?? '',
        });

    const temp = await this.deps.blobs.writeTemp(dicom);
    const kind = report.pdf ? 'PDF' : 'SR';
    // The pipeline owns the temp file from here: it stores it or discards it.
    await this.deps.ingest.ingestTemp(
      temp,
      { accountId: study.account_id, namespaceId: study.namespace_id },
      { kind: 'report', userId: caller.user.uuid, ip: caller.ip, detail: { report: kind, title } },
    );
    await this.deps.audit.record(
      studyEvent(caller, study, 'REPORT_ADD', {
        kind,
        title,
        status: report.final ? 'Final' : 'Preliminary',
        sop_instance_uid: instance.sopInstanceUid,
      }),
    );
    const added = (await this.deps.reports.instances(study.uuid)).find(
      (row) => row.sop_instance_uid === instance.sopInstanceUid,
    );
    if (!added) throw internal('the added report is not in the study');
    return this.fromInstance(added);
  }

  private async fromInstance(row: ReportInstanceRow): Promise<StudyReport> {
    const sr = row.sop_class_uid.startsWith(SR_CLASS_PREFIX);
    const base: StudyReport = {
      id: row.sop_instance_uid,
      kind: sr ? 'SR' : 'PDF',
      status: 'Preliminary',
      author: '',
      time: Number(row.created),
      title: row.series_description || (sr ? 'Structured report' : 'PDF report'),
      text: null,
      series_uid: row.series_uid,
    };
    let data: DataSet;
    try {
      data = dicomParser.parseDicom(new Uint8Array(await this.deps.blobs.read(row.blob_key)), {
        untilTag: 'x7fe00010',
      });
    } catch (error) {
      // A file the index holds but cannot be read again still lists, with what the index knows.
      this.deps.log?.(`report ${row.sop_instance_uid} not readable: ${String(error)}`);
      return base;
    }
    const text = (tag: string) => data.string(tag)?.trim() ?? '';
    // An encapsulated PDF has no completion flag: its verification flag alone says final.
    const final = (!sr || text('x0040a491') === 'COMPLETE') && text('x0040a493') === 'VERIFIED';
    const verifier = data.elements['x0040a073']?.items?.[0]?.dataSet;
    const author = personName(verifier?.string('x0040a075') ?? '') || personName(text('x00081060'));
    // The title typed with the report is its series description; the SR's concept name is generic.
    const title =
      text('x00420010') ||
      row.series_description ||
      data.elements['x0040a043']?.items?.[0]?.dataSet?.string('x00080104')?.trim() ||
      base.title;
    return {
      ...base,
      status: final ? 'Final' : 'Preliminary',
      author,
      time: dicomTime(text('x00080023'), text('x00080033')) ?? base.time,
      title,
      text: sr ? srText(data) : null,
    };
  }
}

/** The study as its stored instances now describe it (edits included). */
function studyAttributes(study: StudyRow): WrapStudy {
  return {
    patientName: study.patient_name,
    patientId: study.patientid,
    patientSex: study.patient_sex,
    patientBirthDate: study.patient_birth_date,
    studyInstanceUid: study.study_uid,
    studyDate: study.study_date,
    studyTime: study.study_time,
    studyDescription: study.study_description,
  };
}

/** A whole PDF (header and end-of-file marker), or the call's refusal. */
function checkPdf(bytes: Uint8Array): void {
  try {
    if (checkWrapInput(bytes) !== 'pdf') throw new WrapInputError('INVALID_FILE_TYPE', 'not a PDF file');
  } catch (error) {
    if (error instanceof WrapInputError) throw new DomainError(error.code, 'file', error.detail);
    throw error;
  }
}

/** A DICOM person name as people read it: 'Given Family'. */
function personName(pn: string): string {
  const [family = '', given = ''] = pn.split('=')[0]!.split('^');
  return [given.trim(), family.trim()].filter(Boolean).join(' ');
}

/** ContentDate + ContentTime as epoch ms (UTC), or null. */
function dicomTime(date: string, time: string): number | null {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  if (!d) return null;
  const t = /^(\d{2})(\d{2})?(\d{2})?/.exec(time) ?? [];
  return Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!, +(t[1] ?? 0), +(t[2] ?? 0), +(t[3] ?? 0));
}

/** The TEXT items of an SR's content tree (0040,A730), depth first, one per line. */
function srText(data: DataSet, depth = 0): string | null {
  const lines: string[] = [];
  const walk = (set: DataSet, level: number) => {
    if (level > 8) return;
    for (const item of set.elements['x0040a730']?.items ?? []) {
      const child = item.dataSet;
      if (!child) continue;
      const value = child.string('x0040a160')?.trim();
      if (value) lines.push(value);
      walk(child, level + 1);
    }
  };
  walk(data, depth);
  return lines.length ? lines.join('\n') : null;
}
