import type { StudyReport } from '@imaging-inbox/contract';
import dicomParser from 'dicom-parser';
import type { DataSet } from 'dicom-parser';
import type { Caller, StudyAccess } from '../policies/index.js';
import type { Hl7ResultsRepository } from '../repositories/hl7-results.repository.js';
import type { ReportInstanceRow, StudyReportsRepository } from '../repositories/study-reports.repository.js';
import { SR_CLASS_PREFIX } from '../repositories/study-reports.repository.js';
import type { BlobStore } from '../storage/blob-store.js';

interface Deps {
  access: StudyAccess;
  reports: StudyReportsRepository;
  results: Hl7ResultsRepository;
  blobs: Pick<BlobStore, 'read'>;
  log?: (line: string) => void;
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
    const final = text('x0040a491') === 'COMPLETE' && text('x0040a493') === 'VERIFIED';
    const verifier = data.elements['x0040a073']?.items?.[0]?.dataSet;
    const author = personName(verifier?.string('x0040a075') ?? '') || personName(text('x00081060'));
    const title =
      text('x00420010') ||
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
