/**
 * DIMSE status codes (PS3.7 C, PS3.4 B.2.3 / C.4) sorted into what a caller does next. A PACS may
 * answer any code in a class, so classes are matched by range, not only the codes PS3.4 lists.
 */
export type StatusCategory =
  /** 0000: done. */
  | 'success'
  /** 0001, 0107, 0116, Bxxx (B000 coercion, B006 elements discarded, B007 data set/SOP class mismatch): done, with a remark kept. */
  | 'warning'
  /** FF00, FF01: more responses follow (C-FIND, C-MOVE). */
  | 'pending'
  /** FE00: the operation was cancelled (C-CANCEL). */
  | 'cancel'
  /** A7xx out of resources (and our own "association lost"): not done now, may succeed later. */
  | 'retry'
  /** A9xx, Cxxx, A8xx, 01xx/02xx errors: this operation or instance failed as it is. */
  | 'failure';

export const STATUS = {
  success: 0x0000,
  pending: 0xff00,
  pendingWarning: 0xff01,
  cancel: 0xfe00,
  outOfResources: 0xa700,
  moveDestinationUnknown: 0xa801,
  cannotUnderstand: 0xc000,
  /** Our marker for "no response came" in outcomes: not a DIMSE code. */
  none: -1,
} as const;

export function classifyStatus(status: number): StatusCategory {
  if (status === 0x0000) return 'success';
  if (status === 0xff00 || status === 0xff01) return 'pending';
  if (status === 0xfe00) return 'cancel';
  if (status === 0x0001 || status === 0x0107 || status === 0x0116) return 'warning';
  if (status >= 0xb000 && status <= 0xbfff) return 'warning';
  if (status >= 0xa700 && status <= 0xa7ff) return 'retry';
  return 'failure';
}

const KNOWN: Record<number, string> = {
  0x0000: 'success',
  0x0001: 'warning: requested optional attributes are not supported',
  0x0107: 'warning: attribute list error',
  0x0116: 'warning: attribute value out of range',
  0x0110: 'processing failure',
  0x0122: 'SOP class not supported',
  0x0124: 'not authorized',
  0x0210: 'duplicate invocation',
  0x0211: 'unrecognized operation',
  0x0212: 'mistyped argument',
  0x0213: 'resource limitation',
  0xa700: 'out of resources',
  0xa701: 'out of resources: unable to calculate number of matches',
  0xa702: 'out of resources: unable to perform sub-operations',
  0xa801: 'move destination unknown',
  0xa900: 'data set does not match SOP class',
  0xb000: 'warning: coercion of data elements / sub-operations completed with failures',
  0xb006: 'warning: elements discarded',
  0xb007: 'warning: data set does not match SOP class',
  0xc000: 'cannot understand',
  0xfe00: 'cancelled',
  0xff00: 'pending',
  0xff01: 'pending: optional keys not supported',
};

/** A short text for logs and job reasons, e.g. `0xA700 out of resources`. */
export function describeStatus(status: number): string {
  if (status < 0) return 'no response';
  const hex = `0x${status.toString(16).toUpperCase().padStart(4, '0')}`;
  const text =
    KNOWN[status] ??
    (status >= 0xa700 && status <= 0xa7ff
      ? 'out of resources'
      : status >= 0xa900 && status <= 0xa9ff
        ? 'data set does not match SOP class'
        : status >= 0xc000 && status <= 0xcfff
          ? 'unable to process'
          : status >= 0xb000 && status <= 0xbfff
            ? 'warning'
            : 'failure');
  return `${hex} ${text}`;
}
