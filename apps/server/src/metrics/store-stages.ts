import { channel } from 'node:diagnostics_channel';

/**
 * Where a received instance is on its way from its C-STORE command to its answer. Published on a
 * diagnostics channel, and only while something listens (`bench:cstore --stages`), so the answer
 * path pays one property read per mark otherwise. Instances of one association follow each other,
 * so there the marks of one instance come in this order; several associations interleave them.
 *
 * - `command`: the command set is complete (the dataset follows);
 * - `dataset`: the dataset is complete;
 * - `parsed`: its header is read and its duplicate looked up; the file's write is handed over next;
 * - `statements`: the index statements have run; the commit waits for the file;
 * - `durable`: the file (or its intake-journal record) is on disk;
 * - `committed`: the index transaction is committed;
 * - `answered`: the C-STORE response is written to the socket.
 */
export type StoreStage =
  'command' | 'dataset' | 'parsed' | 'statements' | 'durable' | 'committed' | 'answered';

export const STORE_STAGE_CHANNEL = 'imaging-inbox:c-store-stage';

export interface StoreStageMark {
  stage: StoreStage;
  /** process.hrtime.bigint() when it was reached. */
  at: bigint;
}

const stages = channel(STORE_STAGE_CHANNEL);

export function markStoreStage(stage: StoreStage): void {
  if (stages.hasSubscribers) stages.publish({ stage, at: process.hrtime.bigint() } satisfies StoreStageMark);
}
