import dicomParser from 'dicom-parser';

/** The header fields the wizard needs from one file. */
export interface DicomHeader {
  studyUid: string;
  sopInstanceUid: string;
  patientName: string;
  patientId: string;
  birthDate: string;
  studyDate: string;
  description: string;
  accession: string;
  modality: string;
}

/** Bytes read per file for its header: headers sit far below this, pixel data is never read. */
export const HEADER_BYTES = 256 * 1024;

const DICOMDIR_SOP_CLASS = '1.2.840.10008.1.3.10';
const PIXEL_DATA = 'x7fe00010';

type DataSet = ReturnType<typeof dicomParser.parseDicom>;

function readDataSet(bytes: Uint8Array): DataSet | null {
  try {
    return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
  } catch (error) {
    // A header cut by the slice still yields the elements read before the cut.
    const partial = (error as { dataSet?: DataSet } | null)?.dataSet;
    return partial ?? null;
  }
}

/**
 * The header of a Part 10 file (DICM prefix) from its first bytes; null for non-DICOM files, a
 * DICOMDIR, or a file without study and instance UIDs.
 */
export function parseDicomHeader(bytes: Uint8Array): DicomHeader | null {
  const dataSet = readDataSet(bytes);
  if (!dataSet) return null;
  const text = (tag: string) => (dataSet.string(tag) ?? '').trim();
  if (text('x00020002') === DICOMDIR_SOP_CLASS) return null;
  const studyUid = text('x0020000d');
  const sopInstanceUid = text('x00080018') || text('x00020003');
  if (!studyUid || !sopInstanceUid) return null;
  return {
    studyUid,
    sopInstanceUid,
    patientName: text('x00100010'),
    patientId: text('x00100020'),
    birthDate: text('x00100030'),
    studyDate: text('x00080020'),
    description: text('x00081030'),
    accession: text('x00080050'),
    modality: text('x00080060'),
  };
}
