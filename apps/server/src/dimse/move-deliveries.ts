/**
 * What the DICOM listener asks about instances a PACS delivers after one of our C-MOVEs. The listener
 * declares the question; a workflow module answers it (pacs's `DeliveryRouter`), as Orthanc's
 * `IMoveRequestHandler` lets plugins answer, so the kernel never imports a module.
 */

/** What the listener knows of an instance arriving from a destination's PACS. */
export interface Arrival {
  /** The destinations this association delivers for (destinationsFor). */
  destinationIds: readonly string[];
  /** The AE title the PACS called: the one we asked it to move to. */
  calledAe: string;
  /** Move Originator AE Title (0000,1030) of the C-STORE, when the PACS sent it. */
  originatorAe?: string | undefined;
  /** Move Originator Message ID (0000,1031), when the PACS sent it. */
  originatorMessageId?: number | undefined;
  /** The instance's Study Instance UID, read from the dataset only when the above do not decide. */
  studyUid: () => Promise<string | undefined>;
}

/** The running retrieve an arriving instance belongs to: where it is ingested and for whom. */
export interface MoveTarget {
  uuid: string;
  account_id: string;
  namespace_id: string;
  user_id: string;
}

export interface MoveDeliveries {
  /** The destinations a PACS calling `senderAe` delivers for when it calls `calledAe`. */
  destinationsFor(calledAe: string, senderAe: string): Promise<string[]>;
  /** The account that calls as `callingAe`, if any. */
  accountOf(callingAe: string): Promise<string | undefined>;
  /** The running retrieve an arriving instance belongs to, or undefined (the instance is refused). */
  retrieveFor(arrival: Arrival): Promise<MoveTarget | undefined>;
  /** One more instance of that retrieve was stored. */
  stored(retrieveId: string): Promise<void>;
}
