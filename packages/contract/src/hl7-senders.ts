import { z } from 'zod';
import { pageParams, rawText, requiredText } from './api-params.js';
import { MAX_PAGE_ROWS } from './limits.js';

/** An HL7 sender an account accepts messages from, as hl7/sender/* answers it (decision 0056). */
export interface Hl7Sender {
  uuid: string;
  account_id: string;
  name: string;
  /** The IP address its MLLP connections come from. */
  host: string;
  /** Sending facility (MSH-4, first component), compared without regard to case or padding. */
  facility: string;
  /** Sending application (MSH-3, first component); null accepts any. */
  application: string | null;
  created: number;
}

export const HL7_SENDER_NAME_MAX_LENGTH = 100;
/** HD namespace ids (MSH-3, MSH-4) are at most 20 characters in HL7 v2.5; some systems send more. */
export const HL7_SENDER_ID_MAX_LENGTH = 64;

/** The fields hl7/sender/add and hl7/sender/set take, as sent (the service checks each). */
const senderFields = { name: rawText(), host: rawText(), facility: rawText(), application: rawText() };

export const hl7SenderListRequest = z
  .object({ account_id: requiredText() })
  .extend(pageParams(MAX_PAGE_ROWS));
export const hl7SenderAddRequest = z.object({ account_id: requiredText(), ...senderFields });
export const hl7SenderSetRequest = z.object({ uuid: requiredText(), ...senderFields });
