/**
 * The DICOM client (SCU): open an association and run C-ECHO, C-FIND, C-MOVE and C-STORE on it, or
 * use the one-call helpers below. Protocol notes: README.md in this folder.
 *
 *   const association = await openAssociation(peer, {
 *     callingAe: 'INBOX',
 *     contexts: [...findContexts('study-root'), ...moveContexts('study-root')],
 *   });
 *   try {
 *     for await (const study of association.find({ model: 'study-root', level: 'STUDY', keys })) …
 *     await association.move({ model: 'study-root', level: 'STUDY', keys: { StudyInstanceUID } }, 'INBOX');
 *   } finally {
 *     await association.release();
 *   }
 */
import { openAssociation } from './association.js';
import { findContexts, VERIFICATION_CONTEXT } from './contexts.js';
import type {
  AssociationOptions,
  DicomAttributes,
  FindOptions,
  FindOutcome,
  FindRequest,
  Peer,
  Timeouts,
} from './types.js';

export { openAssociation, DEFAULT_FIND_CAP } from './association.js';
export {
  EXPLICIT_LE,
  FIND_SOP_CLASS,
  findContexts,
  IMPLICIT_LE,
  MOVE_SOP_CLASS,
  moveContexts,
  storageContexts,
  STORAGE_COMMITMENT_CONTEXT,
  VERIFICATION,
  VERIFICATION_CONTEXT,
} from './contexts.js';
export { AssociationError, DimseError } from './errors.js';
export { IdentifierError } from './identifier.js';
export { fileStoreSource, Part10Error } from './part10-stream.js';
export { classifyStatus, describeStatus, STATUS } from './status.js';
export type { StatusCategory } from './status.js';
export * from './types.js';

/**
 * C-ECHO on a fresh association, released after. Answers the round trip (association included);
 * throws AssociationError (refused, unreachable, timed out) or DimseError.
 */
export async function echo(
  peer: Peer,
  options: { callingAe: string; timeouts?: Partial<Timeouts> },
): Promise<{ roundTripMs: number }> {
  const started = performance.now();
  const association = await openAssociation(peer, { ...options, contexts: [VERIFICATION_CONTEXT] });
  try {
    await association.echo();
  } finally {
    await association.release();
  }
  return { roundTripMs: Math.round(performance.now() - started) };
}

/** A C-FIND on a fresh association, every result gathered (up to the cap), released after. */
export async function findAll(
  peer: Peer,
  options: Omit<AssociationOptions, 'contexts'>,
  request: FindRequest,
  findOptions: FindOptions = {},
): Promise<{ results: DicomAttributes[]; outcome: FindOutcome }> {
  const association = await openAssociation(peer, { ...options, contexts: findContexts(request.model) });
  try {
    const stream = association.find(request, findOptions);
    const results: DicomAttributes[] = [];
    for await (const result of stream) results.push(result);
    return { results, outcome: stream.outcome! };
  } finally {
    if (association.usable) await association.release();
  }
}

/** The text of an attribute in a decoded result ('' when absent or not text). */
export function textOf(attributes: DicomAttributes, keyword: string): string {
  const value = attributes[keyword];
  return typeof value === 'string' ? value : '';
}
