/**
 * Builds a DICOMDIR (PS3.10 Media Storage Directory, PS3.3 F.5) for a downloaded file set, so a
 * recipient's viewer can open the archive without scanning every file. Records are the classic
 * PATIENT → STUDY → SERIES → IMAGE hierarchy.
 *
 * Each record points to its next sibling and its first child by byte offset from the start of the
 * file. Those offsets are 4-byte UL values, so their values never change the layout: the file is
 * written once with zero offsets, the item positions are read back with dicom-parser, and it is
 * written again with the real offsets (same length, same positions).
 */
import dcmjs from 'dcmjs';
import type { NaturalizedDataset } from 'dcmjs';
import dicomParser from 'dicom-parser';
import { newUid } from './uid.js';
import { EXPLICIT_VR_LITTLE_ENDIAN, IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION_NAME } from './write.js';

export const MEDIA_STORAGE_DIRECTORY = '1.2.840.10008.1.3.10';
/** The File-set ID of every downloaded file set; on a CD it is also the Volume Identifier (PS3.12 F.1.1). */
export const DICOM_FILE_SET_ID = 'IMGINBOX';

export interface DicomdirImage {
  /** Components of the file's path in the file set, e.g. ['DICOM', '1', '7']: each ≤ 8 of A-Z 0-9 _. */
  fileId: string[];
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntax: string;
  instanceNumber: number | null;
}

export interface DicomdirSeries {
  seriesUid: string;
  modality: string;
  seriesNumber: number | null;
  seriesDescription: string;
  images: DicomdirImage[];
}

export interface DicomdirStudy {
  studyUid: string;
  patientName: string;
  patientId: string;
  patientBirthDate: string;
  patientSex: string;
  studyDate: string;
  studyTime: string;
  studyDescription: string;
  accessionNumber: string;
  series: DicomdirSeries[];
}

interface Node {
  record: NaturalizedDataset;
  children: Node[];
}

const FILE_ID_COMPONENT = /^[A-Z0-9_]{1,8}$/;

/** The complete DICOMDIR file (Part 10, explicit VR little endian). */
export function buildDicomdir(studies: DicomdirStudy[], fileSetId = DICOM_FILE_SET_ID): Uint8Array {
  const roots = hierarchy(studies);
  const flat: Node[] = [];
  const visit = (nodes: Node[]) => {
    for (const node of nodes) {
      flat.push(node);
      visit(node.children);
    }
  };
  visit(roots);

  const meta: NaturalizedDataset = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: MEDIA_STORAGE_DIRECTORY,
    MediaStorageSOPInstanceUID: newUid(),
    TransferSyntaxUID: EXPLICIT_VR_LITTLE_ENDIAN,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION_NAME,
    _vrMap: { FileMetaInformationVersion: 'OB' },
  };
  const write = () => {
    const dataset: NaturalizedDataset = {
      FileSetID: fileSetId,
      OffsetOfTheFirstDirectoryRecordOfTheRootDirectoryEntity: 0,
      OffsetOfTheLastDirectoryRecordOfTheRootDirectoryEntity: 0,
      FileSetConsistencyFlag: 0,
      DirectoryRecordSequence: flat.map((n) => n.record),
    };
    return writePart10(meta, dataset, offsets);
  };

  // Pass 1: measure. Pass 2: the same bytes with the offsets filled in.
  let offsets: Offsets = { first: 0, last: 0 };
  const positions = itemPositions(write());
  const at = new Map(flat.map((node, i) => [node, positions[i] ?? 0]));
  const link = (nodes: Node[]) => {
    nodes.forEach((node, i) => {
      const next = nodes[i + 1];
      node.record['OffsetOfTheNextDirectoryRecord'] = next ? at.get(next)! : 0;
      const child = node.children[0];
      node.record['OffsetOfReferencedLowerLevelDirectoryEntity'] = child ? at.get(child)! : 0;
      link(node.children);
    });
  };
  link(roots);
  offsets = { first: at.get(roots[0]!) ?? 0, last: at.get(roots[roots.length - 1]!) ?? 0 };
  return write();
}

interface Offsets {
  first: number;
  last: number;
}

function writePart10(meta: NaturalizedDataset, dataset: NaturalizedDataset, offsets: Offsets): Uint8Array {
  const { DicomDict, DicomMetaDictionary } = dcmjs.data;
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset({
    ...dataset,
    OffsetOfTheFirstDirectoryRecordOfTheRootDirectoryEntity: offsets.first,
    OffsetOfTheLastDirectoryRecordOfTheRootDirectoryEntity: offsets.last,
    _vrMap: {
      OffsetOfTheFirstDirectoryRecordOfTheRootDirectoryEntity: 'UL',
      OffsetOfTheLastDirectoryRecordOfTheRootDirectoryEntity: 'UL',
    },
  });
  return new Uint8Array(dict.write());
}

/** Byte offset of each DirectoryRecordSequence item tag (FFFE,E000), in sequence order. */
function itemPositions(bytes: Uint8Array): number[] {
  const dataSet = dicomParser.parseDicom(bytes);
  const items = dataSet.elements['x00041220']?.items ?? [];
  // dataOffset is the first byte after the 8-byte item header.
  return items.map((item) => item.dataOffset - 8);
}

function record(type: string, keys: NaturalizedDataset): NaturalizedDataset {
  return {
    OffsetOfTheNextDirectoryRecord: 0,
    RecordInUseFlag: 0xffff,
    OffsetOfReferencedLowerLevelDirectoryEntity: 0,
    DirectoryRecordType: type,
    SpecificCharacterSet: 'ISO_IR 192',
    ...keys,
    // dcmjs's dictionary lists these pointers as VR "up"; on the wire they are UL.
    _vrMap: { OffsetOfTheNextDirectoryRecord: 'UL', OffsetOfReferencedLowerLevelDirectoryEntity: 'UL' },
  };
}

/** Patients group the studies by (ID, name), as PS3.3 F.5 expects one PATIENT record per patient. */
function hierarchy(studies: DicomdirStudy[]): Node[] {
  const patients = new Map<string, Node>();
  for (const study of studies) {
    const key = `${study.patientId}\u0000${study.patientName}`;
    let patient = patients.get(key);
    if (!patient) {
      patient = {
        record: record('PATIENT', {
          PatientName: study.patientName,
          PatientID: study.patientId,
          PatientBirthDate: study.patientBirthDate,
          PatientSex: study.patientSex,
        }),
        children: [],
      };
      patients.set(key, patient);
    }
    patient.children.push({
      record: record('STUDY', {
        StudyDate: study.studyDate,
        StudyTime: study.studyTime,
        StudyDescription: study.studyDescription,
        StudyInstanceUID: study.studyUid,
        StudyID: '',
        AccessionNumber: study.accessionNumber,
      }),
      children: study.series.map((series, s) => ({
        record: record('SERIES', {
          Modality: series.modality,
          SeriesInstanceUID: series.seriesUid,
          SeriesNumber: series.seriesNumber ?? s + 1,
          SeriesDescription: series.seriesDescription,
        }),
        children: series.images.map((image, i) => {
          for (const part of image.fileId) {
            if (!FILE_ID_COMPONENT.test(part)) throw new Error(`bad file id component ${part}`);
          }
          return {
            record: record('IMAGE', {
              ReferencedFileID: image.fileId,
              ReferencedSOPClassUIDInFile: image.sopClassUid,
              ReferencedSOPInstanceUIDInFile: image.sopInstanceUid,
              ReferencedTransferSyntaxUIDInFile: image.transferSyntax,
              InstanceNumber: image.instanceNumber ?? i + 1,
            }),
            children: [],
          };
        }),
      })),
    });
  }
  return [...patients.values()];
}
