import { z } from 'zod';
import { MAX_PAGE_ROWS } from './limits.js';
import type { ApiOk } from './errors.js';
import type { AnswerPage } from './api-params.js';
import { optionalText, pageParams, requiredText } from './api-params.js';

/**
 * A study's reports (SPEC.md, Reports tab): DICOM Structured Reports and encapsulated PDFs stored in
 * the study, and HL7 ORU^R01 results received for its accession number.
 */

/** Where a report lives: an SR instance, an encapsulated PDF instance, or an HL7 result. */
export const REPORT_KINDS = ['SR', 'PDF', 'HL7'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** A report is 'Preliminary' until its author marks it final (SR completion flag, HL7 OBR-25 F). */
export const REPORT_STATUSES = ['Preliminary', 'Final'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface StudyReport {
  /** SR / PDF: the SOP Instance UID; HL7: the stored result's uuid. */
  id: string;
  kind: ReportKind;
  status: ReportStatus;
  /** The author's name as written (DICOM person names shown `First Last`), '' when unknown. */
  author: string;
  /** Epoch ms of the report (content date/time, or the HL7 observation time), null when unknown. */
  time: number | null;
  title: string;
  /** The report's text (SR text content, HL7 OBX text); null for a PDF. */
  text: string | null;
  /** SR / PDF: the series holding it (for viewing or downloading); null for HL7. */
  series_uid: string | null;
}

/** study/report/list: the reports of one study (study_view), newest first. */
export const studyReportListRequest = z.object({ uuid: requiredText(), ...pageParams(MAX_PAGE_ROWS) });

export interface StudyReportListAnswer extends ApiOk {
  reports: StudyReport[];
  page: AnswerPage;
}

/** The longest text report study/report/add takes, in characters. */
export const MAX_REPORT_TEXT = 20_000;

/**
 * study/report/add (needs study_report_add): a text report (`text`) as a multipart or form field, or
 * a PDF as the multipart file `file`; stored as a new DICOM series of the study (a Basic Text SR or
 * an Encapsulated PDF) so it travels with a push. `final=1` marks it final.
 */
export const studyReportAddRequest = z.object({
  uuid: requiredText(),
  title: optionalText().pipe(z.string().max(64, 'at most 64 characters').optional()),
  text: optionalText().pipe(
    z.string().max(MAX_REPORT_TEXT, `at most ${MAX_REPORT_TEXT} characters`).optional(),
  ),
  final: optionalText().pipe(z.enum(['0', '1'], { error: 'must be 0 or 1' }).optional()),
});

export interface StudyReportAddAnswer extends ApiOk {
  report: StudyReport;
}
