/**
 * C-GET's sub-operations (PS3.4 C.4.3): each instance goes back to the requestor as a C-STORE-RQ on
 * the same association, on a storage context it proposed with the SCP role (role selection,
 * PS3.7 D.3.3.4) in the instance's own transfer syntax (never transcoded here), and its C-STORE-RSP
 * is awaited before the next one.
 */
import type { StoreSource } from './client/types.js';
import { datasetPdus } from './client/pdv.js';
import { COMMAND, commandPdu, element, uid, ushortValue } from './command-set.js';

/** How long a requestor may take to answer one C-STORE-RQ. */
const STORE_RESPONSE_MS = 60_000;

export interface GetLink {
  /** Accepted storage contexts the requestor takes the SCP role on: abstract syntax → id by transfer syntax. */
  storageContexts: { id: number; abstractSyntax: string; transferSyntax: string }[];
  write(chunks: Buffer[]): Promise<void>;
  maxPdvData: number;
}

export class GetSubOperations {
  private nextMessageId = 1;
  private readonly waiting = new Map<number, (status: number) => void>();

  constructor(private readonly link: GetLink) {}

  /** A C-STORE-RSP arrived: the sub-operation waiting for it goes on. */
  answered(messageId: number, status: number): void {
    this.waiting.get(messageId)?.(status);
  }

  /** The association ended: every waiting sub-operation fails. */
  closed(): void {
    for (const resolve of this.waiting.values()) resolve(-1);
  }

  async store(source: StoreSource): Promise<{ category: string }> {
    const context = this.link.storageContexts.find(
      (c) => c.abstractSyntax === source.sopClassUid && c.transferSyntax === source.transferSyntax,
    );
    if (!context) return { category: 'failure' };
    const file = await readAll(source.open());
    const groupLength = file.readUInt32LE(132 + 8);
    const dataset = file.subarray(132 + 12 + groupLength);
    const messageId = this.nextMessageId++;
    const answer = new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(-1), STORE_RESPONSE_MS);
      this.waiting.set(messageId, (status) => {
        clearTimeout(timer);
        this.waiting.delete(messageId);
        resolve(status);
      });
    });
    await this.link.write([
      commandPdu(context.id, [
        element(0x0002, uid(source.sopClassUid)),
        element(0x0100, ushortValue(COMMAND.cStoreRq)),
        element(0x0110, ushortValue(messageId)),
        element(0x0700, ushortValue(0)),
        element(0x0800, ushortValue(0x0000)),
        element(0x1000, uid(source.sopInstanceUid)),
      ]),
      ...datasetPdus(context.id, dataset, this.link.maxPdvData),
    ]);
    const status = await answer;
    if (status === 0) return { category: 'success' };
    if (status >= 0xb000 && status <= 0xbfff) return { category: 'warning' };
    return { category: 'failure' };
  }
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
