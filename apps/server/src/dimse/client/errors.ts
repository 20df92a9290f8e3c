import { describeStatus } from './status.js';

/**
 * The association could not be opened or was lost: connect failure, A-ASSOCIATE-RJ, A-ABORT, a
 * timeout, a protocol error. `kind` tells which; an association that raised one is not usable.
 */
export class AssociationError extends Error {
  constructor(
    readonly kind: 'connect' | 'rejected' | 'aborted' | 'timeout' | 'closed' | 'protocol' | 'no-context',
    message: string,
    /** A-ASSOCIATE-RJ result, source and reason (PS3.8 9.3.4), for `rejected`. */
    readonly reject?: { result: number; source: number; reason: number },
  ) {
    super(message);
    this.name = 'AssociationError';
  }
}

/** The peer answered an operation (C-ECHO, C-FIND) with a failure status. */
export class DimseError extends Error {
  constructor(
    readonly status: number,
    readonly errorComment?: string,
  ) {
    super(`${describeStatus(status)}${errorComment ? `: ${errorComment}` : ''}`);
    this.name = 'DimseError';
  }
}

const REJECT_REASONS: Record<string, string> = {
  '1:1': 'no reason given',
  '1:2': 'application context name not supported',
  '1:3': 'calling AE title not recognized',
  '1:7': 'called AE title not recognized',
  '2:1': 'no reason given',
  '2:2': 'protocol version not supported',
  '3:1': 'temporary congestion',
  '3:2': 'local limit exceeded',
};

/** The text of an A-ASSOCIATE-RJ (PS3.8 table 9-21). */
export function describeReject(result: number, source: number, reason: number): string {
  const permanence = result === 1 ? 'permanent' : 'transient';
  return `association rejected (${permanence}): ${REJECT_REASONS[`${source}:${reason}`] ?? `source ${source}, reason ${reason}`}`;
}
