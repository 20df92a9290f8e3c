import type { PacsPeer } from './pacs-client.js';
import { peerTls } from './destination-tls.js';
import type { DestinationRow, DestinationsRepository } from './destinations.repository.js';
import { auditEvent, type AuditService } from '../../audit/audit.service.js';

/** What a search and a retrieve row share: who asked, for which account, of which destination. */
export interface DestinationWork {
  uuid: string;
  state: string;
  user_id: string;
  account_id: string;
  destination_id: string;
}

/**
 * The start shared by the jobs that ask a destination something (search, retrieve): the row, if it
 * is still running (a job run again after it ended does nothing), and its destination as a peer,
 * or `gone` when the destination was deleted meanwhile.
 */
export async function startDestinationWork<W extends DestinationWork>(
  row: W | undefined,
  destinations: DestinationsRepository,
  callingAes: CallingAeOf,
): Promise<{ row: W; destination: DestinationRow; peer: PacsPeer } | { row: W; gone: true } | undefined> {
  if (!row || row.state !== 'running') return undefined;
  const destination = await destinations.find(row.destination_id);
  return destination
    ? { row, destination, peer: await peerOf(destination, callingAes) }
    : { row, gone: true };
}

/** The AE title a destination's associations call as (services/calling-ae-titles.service.ts). */
export interface CallingAeOf {
  ofDestination(destination: { uuid: string; account_id: string }): Promise<string>;
}

/** A destination as a peer to call, as its own or its account's AE title. */
export async function peerOf(
  destination: Pick<
    DestinationRow,
    'uuid' | 'account_id' | 'aetitle' | 'address' | 'port' | 'tls' | 'tls_ca' | 'tls_cert' | 'tls_key'
  >,
  callingAes: CallingAeOf,
): Promise<PacsPeer> {
  return {
    aeTitle: destination.aetitle,
    host: destination.address,
    port: Number(destination.port),
    tls: peerTls(destination),
    callingAe: await callingAes.ofDestination(destination),
  };
}

/** A DIMSE status as people quote it: four upper-case hex digits. */
export function statusText(status: number): string {
  return status.toString(16).padStart(4, '0').toUpperCase();
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The end of a search or retrieve, audited on its destination for the user who started it. */
export function auditWorkEnd(
  audit: AuditService,
  work: DestinationWork,
  action: 'DESTINATION_SEARCH_END' | 'RETRIEVE_END',
  outcome: 'SUCCESS' | 'FAILURE',
  detail: Record<string, unknown>,
): Promise<void> {
  return audit.record(
    auditEvent(
      { userId: work.user_id },
      work.account_id,
      action,
      { type: 'destination', id: work.destination_id },
      {
        outcome,
        detail,
      },
    ),
  );
}
