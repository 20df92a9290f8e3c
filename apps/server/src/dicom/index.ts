/** Public surface of the DICOM file helpers; other server modules import from here. */
export { DicomParseError, type DicomParseErrorCode } from './errors.js';
export { parseArrivingHeader, parseDicomHeader, readDicomHeader, type ParsedInstance } from './parse.js';
export { buildInstance, newUid, ORG_ROOT, type InstanceSpec } from './write.js';
export { MODALITIES, SOP_CLASS_BY_MODALITY, type Modality } from './sop-classes.js';
export {
  generateStudySpecs,
  instanceCount,
  instanceUid,
  studySpecAt,
  writeStudyFiles,
  type GenerateOptions,
  type SeriesSpec,
  type StudySpec,
} from './generate.js';
export { derivedUid, isOurUid, isValidUid } from './uid.js';
