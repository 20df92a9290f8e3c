import type {
  DestinationRetrieveRow,
  DestinationSearchesRepository,
} from '../repositories/destination-searches.repository.js';

/** What the listener knows of an instance arriving from a destination's PACS. */
export interface Arrival {
  /** The destination whose registered sender opened the association (its calling AE). */
  destinationId: string;
  /** Move Originator AE Title (0000,1030) of the C-STORE, when the PACS sent it. */
  originatorAe?: string | undefined;
  /** Move Originator Message ID (0000,1031), when the PACS sent it. */
  originatorMessageId?: number | undefined;
  /** The instance's Study Instance UID, read from the dataset only when the above do not decide. */
  studyUid: () => Promise<string | undefined>;
}

/**
 * Finds the running retrieve an instance delivered by a destination's PACS belongs to, so it is
 * ingested into that retrieve's group. A C-STORE sub-operation names the C-MOVE that caused it by
 * its originator's AE title and message id; a PACS that leaves them out is matched by its calling
 * AE (the destination) and the instance's Study Instance UID. An instance that matches no running
 * retrieve (another system's C-MOVE, or one sent on the PACS's own initiative) has no group and is
 * refused.
 */
export class DeliveryRouter {
  constructor(private readonly deps: { searches: DestinationSearchesRepository; ourAeTitle: string }) {}

  async retrieveFor(arrival: Arrival): Promise<DestinationRetrieveRow | undefined> {
    if (arrival.originatorAe && arrival.originatorAe !== this.deps.ourAeTitle) return undefined;
    const running = await this.deps.searches.runningOfDestination(arrival.destinationId);
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
