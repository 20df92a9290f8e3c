/**
 * Storage Commitment Push Model (PS3.4 J): what both sides of the DICOM code share. The client asks
 * with an N-ACTION (`client/association.ts` `commit`); the PACS answers with an N-EVENT-REPORT on
 * that association or on one it opens to our listener (`scp.ts`). Either way the report goes to a
 * `StorageCommitmentReports` handler, declared here and answered by a workflow module (pacs), as
 * `MoveDeliveries` is, so the kernel never imports a module.
 */
import { decodeIdentifier, encodeIdentifier } from './client/identifier.js';
import type { CommitmentItem, CommitmentReport, DicomAttributes, ReportAnswer } from './client/types.js';

// The report's shapes are the client's public ones (client/types.ts); the listener uses them too.
export type { CommitmentItem, CommitmentReport, ReportAnswer };

/** Storage Commitment Push Model SOP Class. */
export const STORAGE_COMMITMENT_CLASS = '1.2.840.10008.1.20.1';
/** Its well-known SOP Instance (the N-ACTION's Requested SOP Instance UID). */
export const STORAGE_COMMITMENT_INSTANCE = '1.2.840.10008.1.20.1.1';
/** Action Type ID of "Request Storage Commitment". */
export const COMMITMENT_ACTION_TYPE = 1;
/** Event Type IDs of the report: every instance committed, or some failed. */
export const COMMITMENT_EVENT = { allCommitted: 1, someFailed: 2 } as const;
/** The most instances one N-ACTION names (its dataset stays well under a few MB). */
export const MAX_COMMITMENT_INSTANCES = 20_000;

/** Who sent a report: the PACS's AE title, and the destinations its association may speak for. */
export interface CommitmentReporter {
  callingAe: string;
  calledAe: string;
  /** On our listener: the destinations the calling PACS delivers for; on our own association: the one asked. */
  destinationIds: readonly string[];
}

export interface StorageCommitmentReports {
  /** Records a report; answers how the N-EVENT-REPORT-RSP is to read. */
  report(from: CommitmentReporter, report: CommitmentReport): Promise<ReportAnswer>;
}

/** The N-ACTION-RQ dataset: the transaction and the instances to commit. */
export function commitmentRequestDataset(
  transactionUid: string,
  items: readonly CommitmentItem[],
  transferSyntax: string,
): Buffer {
  return encodeIdentifier(
    {
      TransactionUID: transactionUid,
      ReferencedSOPSequence: items.map((i) => ({
        ReferencedSOPClassUID: i.sopClassUid,
        ReferencedSOPInstanceUID: i.sopInstanceUid,
      })),
    },
    transferSyntax,
  );
}

/** The N-EVENT-REPORT-RQ dataset read; throws IdentifierError when it is not one. */
export function parseCommitmentReport(dataset: Buffer, transferSyntax: string): CommitmentReport {
  const attributes = decodeIdentifier(dataset, transferSyntax);
  const transactionUid = text(attributes['TransactionUID']);
  if (!transactionUid) throw new Error('report without Transaction UID');
  const itemsOf = (value: DicomAttributes[keyof DicomAttributes] | undefined) =>
    Array.isArray(value) ? (value as DicomAttributes[]).filter((v) => typeof v === 'object') : [];
  const item = (i: DicomAttributes): CommitmentItem => ({
    sopClassUid: text(i['ReferencedSOPClassUID']),
    sopInstanceUid: text(i['ReferencedSOPInstanceUID']),
  });
  return {
    transactionUid,
    committed: itemsOf(attributes['ReferencedSOPSequence']).map(item),
    failed: itemsOf(attributes['FailedSOPSequence']).map((i) => {
      const reason = i['FailureReason'];
      return {
        ...item(i),
        reason: Array.isArray(reason) && typeof reason[0] === 'number' ? reason[0] : 0x0110,
      };
    }),
  };
}

/** PS3.4 J.3.2.1.1 Failure Reasons in words. */
export function describeFailureReason(reason: number): string {
  switch (reason) {
    case 0x0110:
      return 'processing failure';
    case 0x0112:
      return 'no such object instance';
    case 0x0213:
      return 'resource limitation';
    case 0x0122:
      return 'referenced SOP class not supported';
    case 0x0119:
      return 'class / instance conflict';
    case 0x0131:
      return 'duplicate transaction UID';
    default:
      return `failure reason 0x${reason.toString(16).padStart(4, '0')}`;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
