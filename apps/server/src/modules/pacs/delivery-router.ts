import type {
  DestinationRetrieveRow,
  DestinationSearchesRepository,
} from './destination-searches.repository.js';
import type { DestinationsRepository } from './destinations.repository.js';
import type { AeTitleOwner } from './calling-ae-titles.service.js';
import type { Arrival, MoveDeliveries } from '../../dimse/move-deliveries.js';

const key = (title: string) => title.trim().toUpperCase();

/**
 * Finds the running retrieve an instance delivered by a destination's PACS belongs to, so it is
 * ingested into that retrieve's group. Each account (or destination) asks its PACS to move to the
 * AE title it calls as, so the called AE of the delivering association names the account, and with
 * the PACS's calling AE the destination(s) it delivers for: a PACS of one account cannot deliver
 * into another's retrieve. A C-STORE sub-operation names the C-MOVE that caused it by its
 * originator's AE title and message id; a PACS that leaves them out is matched by the instance's
 * Study Instance UID. An instance that matches no running retrieve (another system's C-MOVE, or
 * one sent on the PACS's own initiative) has no group and is refused.
 */
export class DeliveryRouter implements MoveDeliveries {
  constructor(
    private readonly deps: {
      searches: DestinationSearchesRepository;
      destinations: Pick<DestinationsRepository, 'ofAccountByAeTitle'>;
      callingAes: {
        owner(calledAe: string): Promise<AeTitleOwner | undefined>;
        ownOf(destinationId: string): Promise<string | null>;
      };
    },
  ) {}

  /**
   * The destinations a PACS calling as `senderAe` delivers for when it calls `calledAe`: those of
   * the account (or the one destination) presenting `calledAe` whose PACS has that AE title and that
   * call as `calledAe` (not as a title of their own). None: the association is refused.
   */
  async destinationsFor(calledAe: string, senderAe: string): Promise<string[]> {
    const owner = await this.deps.callingAes.owner(calledAe);
    if (!owner) return [];
    const rows = await this.deps.destinations.ofAccountByAeTitle(owner.accountId, senderAe);
    const found: string[] = [];
    for (const row of rows) {
      const own = await this.deps.callingAes.ownOf(row.uuid);
      const callsAs = owner.destinationId === null ? own === null : row.uuid === owner.destinationId;
      if (callsAs) found.push(row.uuid);
    }
    return found;
  }

  /** The account presenting this AE title of ours, if any (our own pushes to a local AE title). */
  async accountOf(callingAe: string): Promise<string | undefined> {
    return (await this.deps.callingAes.owner(callingAe))?.accountId;
  }

  async retrieveFor(arrival: Arrival): Promise<DestinationRetrieveRow | undefined> {
    if (arrival.originatorAe && key(arrival.originatorAe) !== key(arrival.calledAe)) return undefined;
    const running: DestinationRetrieveRow[] = [];
    for (const id of arrival.destinationIds)
      running.push(...(await this.deps.searches.runningOfDestination(id)));
    if (!running.length) return undefined;
    if (arrival.originatorAe) {
      if (arrival.originatorMessageId !== undefined) {
        const byMessage = running.filter((r) => r.move_message_id === arrival.originatorMessageId);
        if (byMessage.length === 1) return byMessage[0];
      }
      // Our C-MOVE to this PACS, and only one is running: it is that one.
      if (running.length === 1) return running[0];
    }
    const studyUid = await arrival.studyUid();
    return studyUid ? running.find((r) => r.study_uid === studyUid) : undefined;
  }

  /** One more instance of the retrieve is stored (its progress while the C-MOVE runs). */
  stored(retrieveId: string): Promise<void> {
    return this.deps.searches.countReceived(retrieveId);
  }
}
