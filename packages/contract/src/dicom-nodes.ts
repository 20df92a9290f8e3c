import { z } from 'zod';
import { optionalText, rawText, requiredText } from './api-params.js';

/** A registered DICOM sender as dicom/node/* answers it. */
export interface DicomNode {
  uuid: string;
  account_id: string;
  name: string;
  /** Calling AE title the sender's associations must carry; unique over all accounts. */
  ae_title: string;
  /** IP address the associations must come from, or `*` for any. */
  host: string;
  /**
   * The CLOUD group its instances are delivered into; null for a destination's PACS, whose C-MOVE
   * deliveries go to the group that asked for them.
   */
  group_id: string | null;
  group_name: string | null;
  namespace_id: string | null;
  /** The destination it was registered for, which edits and deletes it. */
  destination_id: string | null;
  /** The groups it may query (C-FIND) as a DICOM peer; empty: it may not query (decision 0061). */
  query_group_ids: string[];
  /** 1: it may retrieve (C-MOVE, C-GET) from the groups it may query. */
  may_retrieve: 0 | 1;
  /** The port it listens on at `host` as a C-MOVE destination; null: it is not one. */
  port: number | null;
  created: number;
}

export const AE_TITLE_MAX_LENGTH = 16;
export const DICOM_NODE_NAME_MAX_LENGTH = 100;

/**
 * An AE title (PS3.5 6.2, VR AE): 1 to 16 characters of the default character repertoire, no
 * backslash and no control characters; leading and trailing spaces are not significant (pass it
 * trimmed), so it cannot be all spaces.
 */
export function isAeTitle(value: string): boolean {
  return (
    value.length >= 1 &&
    value.length <= AE_TITLE_MAX_LENGTH &&
    /^[\x20-\x5b\x5d-\x7e]+$/.test(value) &&
    value.trim() === value
  );
}

/** The fields dicom/node/add and dicom/node/set take, as sent (the service checks each). */
const dicomNodeFields = {
  ae_title: rawText(),
  host: rawText(),
  group_id: rawText(),
  name: rawText(),
  /** Comma-separated uuids of the groups it may query ('' for none; decision 0061). */
  query_group_ids: rawText(),
  /** 1 or 0: whether it may retrieve (C-MOVE, C-GET). */
  may_retrieve: rawText(),
  /** Its listening port as a C-MOVE destination ('' for none). */
  port: rawText(),
};
/** dicom/node/add: a DICOM sender registered with an account. */
export const dicomNodeAddRequest = z.object({ account_id: requiredText(), ...dicomNodeFields });
/** dicom/node/set: a registered sender changed. */
export const dicomNodeSetRequest = z.object({ uuid: requiredText(), ...dicomNodeFields });

const aeTitleParam = () =>
  z.string().trim().refine(isAeTitle, 'an AE title: 1 to 16 characters, printable ASCII without backslash');

/**
 * group/scanner/validate: would a scanner (any DICOM sender) calling as `ae_title`, from the
 * address `host` when given, to our `called_ae_title` (this server's own when absent), land its
 * images in group `uuid`? Checked by the rules the DICOM listener applies to an association.
 */
export const groupScannerValidateRequest = z.object({
  uuid: requiredText(),
  ae_title: requiredText().pipe(aeTitleParam()),
  host: optionalText().pipe(
    z
      .string()
      .refine(
        (v) => z.ipv4().safeParse(v).success || z.ipv6().safeParse(v).success,
        'an IPv4 or IPv6 address',
      )
      .optional(),
  ),
  called_ae_title: optionalText().pipe(aeTitleParam().optional()),
});
export type GroupScannerValidateRequest = z.output<typeof groupScannerValidateRequest>;

/** One reason the scanner would not land in the group: the parameter it is about and why. */
export interface ScannerProblem {
  field: 'uuid' | 'ae_title' | 'host' | 'called_ae_title';
  reason: string;
}

export interface GroupScannerValidateAnswer {
  /** 1 when an association as described would be accepted and its images filed in the group. */
  valid: 0 | 1;
  group: { uuid: string; name: string; type: string };
  /** The AE title the scanner must call (this server's, or the local AE title named). */
  called_ae_title: string;
  /** The account's registered sender with this AE title, if any. */
  node: Pick<DicomNode, 'uuid' | 'name' | 'ae_title' | 'host' | 'group_id' | 'group_name'> | null;
  problems: ScannerProblem[];
}
