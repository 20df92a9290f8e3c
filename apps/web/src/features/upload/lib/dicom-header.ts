import dicomParser from 'dicom-parser';
import { readPrefix, type ByteSource } from './byte-source';

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
const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';
export const DEFLATED_EXPLICIT_LITTLE = '1.2.840.10008.1.2.1.99';

type DataSet = ReturnType<typeof dicomParser.parseDicom>;

function readDataSet(bytes: Uint8Array, options: { TransferSyntaxUID?: string } = {}): DataSet | null {
  try {
    return dicomParser.parseDicom(bytes, { ...options, untilTag: PIXEL_DATA });
  } catch (error) {
    // A header cut by the slice still yields the elements read before the cut.
    const partial = (error as { dataSet?: DataSet } | null)?.dataSet;
    return partial ?? null;
  }
}

/** The Part 10 meta group (DICM prefix) and where the dataset starts; null for other bytes. */
function readMeta(bytes: Uint8Array): { meta: DataSet; end: number } | null {
  try {
    const meta = dicomParser.readPart10Header(bytes) as DataSet & { position: number };
    return { meta, end: meta.position };
  } catch {
    return null;
  }
}

function headerOf(dataSet: DataSet, meta?: DataSet): DicomHeader | null {
  const text = (tag: string) => {
    try {
      return (dataSet.string(tag) ?? meta?.string(tag) ?? '').trim();
    } catch {
      // The element's value runs past the bytes read (cut by the prefix): not read yet.
      return '';
    }
  };
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

/**
 * The header of a Part 10 file (DICM prefix) from its first bytes; null for non-DICOM files, a
 * DICOMDIR, a file without study and instance UIDs, or a deflated file (see readDicomHeader).
 * Implicit and explicit VR, little and big endian are read as they come.
 */
export function parseDicomHeader(bytes: Uint8Array): DicomHeader | null {
  const found = readMeta(bytes);
  if (!found || found.meta.string('x00020010')?.trim() === DEFLATED_EXPLICIT_LITTLE) return null;
  const dataSet = readDataSet(bytes);
  return dataSet ? headerOf(dataSet) : null;
}

/** Bytes read first: the study tags (groups 0008 to 0020) of most files sit in the first few KB. */
export const FIRST_READ_BYTES = 16 * 1024;

/**
 * The header of the file in `source`, reading FIRST_READ_BYTES and, only when the Study Instance
 * UID was not within them (long private or sequence elements before it), HEADER_BYTES. Every field
 * of DicomHeader has a tag below (0020,000D), so once that is read the rest was too. A Deflated
 * Explicit VR Little Endian file (1.2.840.10008.1.2.1.99) has its dataset deflated after the meta
 * group: only a prefix of it is inflated, with the browser's DecompressionStream, and read as
 * explicit little endian.
 */
export async function readDicomHeader(source: ByteSource): Promise<DicomHeader | null> {
  const first = await readHeaderWithin(source, FIRST_READ_BYTES);
  return first.final ? first.header : (await readHeaderWithin(source, HEADER_BYTES)).header;
}

/** `final` unless reading further could still find the header: DICOM, no study UID, bytes left. */
async function readHeaderWithin(
  source: ByteSource,
  limit: number,
): Promise<{ header: DicomHeader | null; final: boolean }> {
  const head = await source.read(0, limit);
  const found = readMeta(head);
  if (!found) return { header: null, final: true };
  let header: DicomHeader | null;
  let whole: boolean;
  if (found.meta.string('x00020010')?.trim() !== DEFLATED_EXPLICIT_LITTLE) {
    header = parseDicomHeader(head);
    whole = head.length < limit;
  } else {
    const inflated = await readPrefix(
      source
        .stream(found.end)
        .pipeThrough(new DecompressionStream('deflate-raw') as ReadableWritablePair<Uint8Array, Uint8Array>),
      limit,
    );
    const dataSet = readDataSet(inflated, { TransferSyntaxUID: EXPLICIT_LITTLE });
    header = dataSet ? headerOf(dataSet, found.meta) : null;
    whole = inflated.length < limit;
  }
  return { header, final: header !== null || whole || limit >= HEADER_BYTES };
}
