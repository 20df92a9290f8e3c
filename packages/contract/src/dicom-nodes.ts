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
