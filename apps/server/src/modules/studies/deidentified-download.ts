import { buildDicomdir, type DicomdirSeries, type DicomdirStudy } from '../../dicom/dicomdir.js';
import { DomainError, notFound, tooLarge } from '../../domain/errors.js';
import type { DicomwebRepository } from '../../repositories/dicomweb.repository.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { ZipEntry } from '../../storage/zip-stream.js';

/**
 * Source bytes one de-identified archive may hold: every file is de-identified twice (once to size
 * the archive and build its DICOMDIR, once as it is written), so this bounds one request's work.
 */
export const DEIDENTIFIED_DOWNLOAD_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * What this module needs of a de-identification profile bound to its account's secret (the
 * privacy module's Deidentifier answers it; declared here so studies does not depend on privacy).
 */
export interface DeidentifyingProfile {
  profile: { uuid: string; name: string };
  apply(bytes: Uint8Array):
    | {
        refused: false;
        result: {
          bytes: Uint8Array;
          studyInstanceUid: string;
          seriesInstanceUid: string;
          sopInstanceUid: string;
          patientId: string;
          patientName: string;
        };
      }
    | { refused: true; reason: 'burned_in' | 'unreadable' };
}

export interface DeidentifiedArchive {
  entries: ZipEntry[];
  instances: number;
  bytes: number;
  /** Instances left out because they may carry burned-in text and the profile does not keep them. */
  refusedBurnedIn: number;
  /** Instances left out because the engine could not read or write them. */
  refusedUnreadable: number;
}

/**
 * The files of a de-identified download (issue 33): every instance of the studies (or the series
 * asked) de-identified by the account's profile, laid out as the plain download lays them out, with
 * a DICOMDIR built from the copies (pseudonymous patient, remapped UIDs, no dates or descriptions).
 * An instance that may carry burned-in text is left out unless the profile keeps them; if nothing is
 * left, the download is refused (NOT_PERMITTED `burned_in_text`) rather than answering an empty file.
 */
export async function deidentifiedArchive(
  deps: { dicomweb: DicomwebRepository; blobs: BlobStore },
  targets: { row: StudyRow; seriesUids?: string[] | undefined }[],
  bound: DeidentifyingProfile,
): Promise<DeidentifiedArchive> {
  const multi = targets.length > 1;
  const entries: ZipEntry[] = [];
  const dirStudies = new Map<string, DicomdirStudy>();
  let total = 0;
  const out = { instances: 0, bytes: 0, refusedBurnedIn: 0, refusedUnreadable: 0 };
  for (const [studyIndex, { row, seriesUids }] of targets.entries()) {
    const series = await deps.dicomweb.seriesOfStudy(row.uuid, {});
    const wanted = seriesUids ? new Set(seriesUids) : undefined;
    if (wanted && [...wanted].some((uid) => !series.some((s) => s.series_uid === uid)))
      throw notFound('series');
    const instances = await deps.dicomweb.instances(row.uuid, {});
    let seriesNumber = 0;
    for (const s of series) {
      if (wanted && !wanted.has(s.series_uid)) continue;
      const files = instances.filter((i) => i.series_uuid === s.uuid);
      if (!files.length) continue;
      seriesNumber += 1;
      const folder = multi
        ? ['DICOM', String(studyIndex + 1), String(seriesNumber)]
        : ['DICOM', String(seriesNumber)];
      let dirSeries: DicomdirSeries | undefined;
      let imageNumber = 0;
      for (const file of files) {
        total += Number(file.size);
        if (total > DEIDENTIFIED_DOWNLOAD_MAX_BYTES)
          throw tooLarge(`a de-identified download holds at most ${DEIDENTIFIED_DOWNLOAD_MAX_BYTES} bytes`);
        const source = await deps.blobs.read(file.blob_key);
        const applied = bound.apply(source);
        if (applied.refused) {
          if (applied.reason === 'burned_in') out.refusedBurnedIn += 1;
          else out.refusedUnreadable += 1;
          continue;
        }
        const copy = applied.result;
        let study = dirStudies.get(copy.studyInstanceUid);
        if (!study) {
          study = {
            studyUid: copy.studyInstanceUid,
            patientName: copy.patientName,
            patientId: copy.patientId,
            patientBirthDate: '',
            patientSex: '',
            studyDate: '',
            studyTime: '',
            studyDescription: '',
            accessionNumber: '',
            series: [],
          };
          dirStudies.set(copy.studyInstanceUid, study);
        }
        if (!dirSeries) {
          dirSeries = {
            seriesUid: copy.seriesInstanceUid,
            modality: s.modality,
            seriesNumber: s.series_number,
            seriesDescription: '',
            images: [],
          };
          study.series.push(dirSeries);
        }
        imageNumber += 1;
        const fileId = [...folder, String(imageNumber)];
        // Only the sizes and UIDs stay: the copy is made again as its entry is written, so an
        // archive holds one file in memory at a time, not all of them (the profile's output is a
        // function of the file and the account's secret, so the second copy is the first).
        const size = copy.bytes.byteLength;
        entries.push({
          name: fileId.join('/'),
          size,
          open: () => deidentifiedAgain(deps.blobs, file.blob_key, bound, size),
        });
        dirSeries.images.push({
          fileId,
          sopClassUid: file.sop_class_uid,
          sopInstanceUid: copy.sopInstanceUid,
          transferSyntax: file.transfer_syntax,
          instanceNumber: file.instance_number,
        });
        out.instances += 1;
        out.bytes += size;
      }
    }
  }
  if (!entries.length) {
    if (out.refusedBurnedIn)
      throw new DomainError('NOT_PERMITTED', 'burned_in_text', { refused: out.refusedBurnedIn });
    throw notFound('instances');
  }
  const dicomdir = buildDicomdir([...dirStudies.values()]);
  entries.unshift({ name: 'DICOMDIR', size: dicomdir.byteLength, open: () => once(dicomdir) });
  return { entries, ...out };
}

/** The de-identified copy of one stored file, made as its ZIP entry is written. */
async function* deidentifiedAgain(
  blobs: BlobStore,
  blobKey: string,
  bound: DeidentifyingProfile,
  size: number,
): AsyncGenerator<Uint8Array> {
  const applied = bound.apply(await blobs.read(blobKey));
  // A file that changed under the download, or a profile that is not deterministic, would write an
  // entry whose length differs from the one announced: end the archive instead.
  if (applied.refused || applied.result.bytes.byteLength !== size)
    throw new Error(`de-identified copy of ${blobKey} changed while the archive was written`);
  yield applied.result.bytes;
}

// eslint-disable-next-line @typescript-eslint/require-await
async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
