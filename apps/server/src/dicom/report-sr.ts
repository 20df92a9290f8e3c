/**
 * A text report as a DICOM Basic Text SR (PS3.3 A.35.1): Patient, General Study, SR Document Series,
 * General Equipment, SR Document General and SR Document Content modules. The content tree is one
 * CONTAINER titled 'Diagnostic imaging report' (LOINC 18748-4) holding the text as one TEXT item
 * 'Finding' (DCM 121071). A final report is COMPLETE and VERIFIED by its author; otherwise PARTIAL
 * and UNVERIFIED, which readers show as preliminary.
 */
import type { NaturalizedDataset } from 'dcmjs';
import { EXPLICIT_VR_LITTLE_ENDIAN } from './write.js';
import { commonAttributes, writePart10, type WrapInstance, type WrapStudy } from './wrap.js';

export const BASIC_TEXT_SR_STORAGE = '1.2.840.10008.5.1.4.1.1.88.11';

export interface ReportContent {
  text: string;
  final: boolean;
  /** PN `Family^Given` of the user who adds it. */
  author: string;
  accessionNumber: string;
  referringPhysician: string;
  /** The account the author verifies for (Verifying Organization, Type 1). */
  organization: string;
}

export function basicTextSr(study: WrapStudy, instance: WrapInstance, report: ReportContent): Uint8Array {
  // SC Equipment's Conversion Type belongs to wrapped files, not to an SR.
  const { ConversionType: _notInSr, ...common } = commonAttributes(
    study,
    instance,
    BASIC_TEXT_SR_STORAGE,
    'SR',
  );
  const observedAt = `${instance.contentDate}${instance.contentTime}`;
  const dataset: NaturalizedDataset = {
    ...common,
    AccessionNumber: report.accessionNumber,
    ReferringPhysicianName: report.referringPhysician,
    NameOfPhysiciansReadingStudy: report.author,
    ReferencedPerformedProcedureStepSequence: [],
    CompletionFlag: report.final ? 'COMPLETE' : 'PARTIAL',
    VerificationFlag: report.final ? 'VERIFIED' : 'UNVERIFIED',
    ...(report.final
      ? {
          VerifyingObserverSequence: [
            {
              VerifyingObserverName: report.author,
              VerifyingObserverIdentificationCodeSequence: [],
              VerifyingOrganization: report.organization.slice(0, 64),
              VerificationDateTime: observedAt,
            },
          ],
        }
      : {}),
    PerformedProcedureCodeSequence: [],
    ValueType: 'CONTAINER',
    ConceptNameCodeSequence: [
      { CodeValue: '18748-4', CodingSchemeDesignator: 'LN', CodeMeaning: 'Diagnostic imaging report' },
    ],
    ContinuityOfContent: 'SEPARATE',
    ContentSequence: [
      {
        RelationshipType: 'CONTAINS',
        ValueType: 'TEXT',
        ConceptNameCodeSequence: [
          { CodeValue: '121071', CodingSchemeDesignator: 'DCM', CodeMeaning: 'Finding' },
        ],
        TextValue: report.text,
      },
    ],
  };
  return writePart10(BASIC_TEXT_SR_STORAGE, instance.sopInstanceUid, EXPLICIT_VR_LITTLE_ENDIAN, dataset);
}
