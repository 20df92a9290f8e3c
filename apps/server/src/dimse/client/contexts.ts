/**
 * The presentation contexts a client proposes for each service (PS3.4 C.6, K.6) and the rules for
 * picking one of those the peer accepted.
 */
import { VERIFICATION } from '../sop-classes.js';
import { STORAGE_COMMITMENT_CLASS } from '../storage-commitment.js';
import { EXPLICIT_LE, IMPLICIT_LE } from './identifier.js';
import type { ContextProposal, InformationModel } from './types.js';

export { VERIFICATION, EXPLICIT_LE, IMPLICIT_LE };

export const FIND_SOP_CLASS: Record<InformationModel, string> = {
  'patient-root': '1.2.840.10008.5.1.4.1.2.1.1',
  'study-root': '1.2.840.10008.5.1.4.1.2.2.1',
  worklist: '1.2.840.10008.5.1.4.31',
};

export const MOVE_SOP_CLASS: Record<'patient-root' | 'study-root', string> = {
  'patient-root': '1.2.840.10008.5.1.4.1.2.1.2',
  'study-root': '1.2.840.10008.5.1.4.1.2.2.2',
};

/** Query identifiers travel in Explicit VR LE when the peer takes it, else the default Implicit VR LE. */
const QUERY_SYNTAXES = [EXPLICIT_LE, IMPLICIT_LE];

export const VERIFICATION_CONTEXT: ContextProposal = {
  abstractSyntax: VERIFICATION,
  transferSyntaxes: [IMPLICIT_LE],
};

/** Storage Commitment Push Model (N-ACTION, and the N-EVENT-REPORT that may come back on it). */
export const STORAGE_COMMITMENT_CONTEXT: ContextProposal = {
  abstractSyntax: STORAGE_COMMITMENT_CLASS,
  transferSyntaxes: QUERY_SYNTAXES,
};

export function findContexts(...models: InformationModel[]): ContextProposal[] {
  return models.map((model) => ({ abstractSyntax: FIND_SOP_CLASS[model], transferSyntaxes: QUERY_SYNTAXES }));
}

export function moveContexts(...models: ('patient-root' | 'study-root')[]): ContextProposal[] {
  return models.map((model) => ({ abstractSyntax: MOVE_SOP_CLASS[model], transferSyntaxes: QUERY_SYNTAXES }));
}

/**
 * Storage contexts for instances about to be sent: per SOP class and stored transfer syntax one
 * context offering exactly that syntax (so the file can go unchanged), and per SOP class one
 * offering Explicit VR Little Endian (the fallback the transcoder produces). Separate contexts,
 * because an acceptor picks one syntax per context and would otherwise choose for us.
 */
export function storageContexts(
  instances: Iterable<{ sopClassUid: string; transferSyntax: string }>,
): ContextProposal[] {
  const out: ContextProposal[] = [];
  const seen = new Set<string>();
  const add = (abstractSyntax: string, transferSyntax: string) => {
    const key = `${abstractSyntax} ${transferSyntax}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ abstractSyntax, transferSyntaxes: [transferSyntax] });
  };
  for (const instance of instances) {
    add(instance.sopClassUid, instance.transferSyntax);
    add(instance.sopClassUid, EXPLICIT_LE);
  }
  return out;
}

/** Merges proposals with the same abstract syntax and syntaxes (callers may concatenate builders). */
export function uniqueProposals(proposals: ContextProposal[]): ContextProposal[] {
  const seen = new Set<string>();
  return proposals.filter((p) => {
    const key = `${p.abstractSyntax} ${p.transferSyntaxes.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
