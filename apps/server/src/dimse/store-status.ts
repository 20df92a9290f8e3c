import { isRefusal } from '../domain/errors.js';

/** DIMSE statuses we answer (PS3.4 B.2.3, PS3.7 C). */
export const STORE_STATUS = {
  success: 0x0000,
  /** Refused: out of resources — the server could not store it; the sender may retry. */
  outOfResources: 0xa700,
  /** Error: cannot understand — the dataset does not parse or lacks a required attribute. */
  cannotUnderstand: 0xc000,
  /** Refused: not authorized — a destination's PACS sent an instance no retrieve of ours asked for. */
  notAuthorized: 0x0124,
  /** The command is not one this SCP performs (C-FIND, C-MOVE… on a storage context). */
  unrecognizedOperation: 0x0211,
} as const;

export interface StoreFailure {
  status: number;
  /** Error Comment (0000,0902): the domain error's type and sub-type, or a plain reason. */
  errorComment: string;
}

/**
 * The C-STORE answer for an ingest that threw: a refused instance (bad DICOM, missing attribute,
 * over a limit) is "cannot understand", so the sender does not retry it; a server failure is "out of
 * resources", which the sender may retry later.
 */
export function storeFailureOf(error: unknown): StoreFailure {
  if (isRefusal(error)) {
    return {
      status: STORE_STATUS.cannotUnderstand,
      errorComment: `${error.errorType}: ${error.subtype ?? ''}`,
    };
  }
  return { status: STORE_STATUS.outOfResources, errorComment: 'could not store the instance' };
}
