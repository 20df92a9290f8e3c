/** P-DATA-TF framing for what the client sends: one PDV per PDU, header written apart from its payload. */

/** A small dataset (a query identifier) as P-DATA-TF PDUs, last fragment flagged. */
export function datasetPdus(contextId: number, dataset: Buffer, maxPdvData: number): Buffer[] {
  const out: Buffer[] = [];
  let offset = 0;
  do {
    const take = Math.min(maxPdvData, dataset.length - offset);
    const last = offset + take >= dataset.length;
    out.push(pdvHeader(contextId, take, false, last), dataset.subarray(offset, offset + take));
    offset += take;
  } while (offset < dataset.length);
  return out;
}

/** The 12 bytes before a PDV's payload: P-DATA-TF header and PDV item header (one PDV per PDU). */
export function pdvHeader(contextId: number, length: number, isCommand: boolean, isLast: boolean): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt8(0x04, 0);
  header.writeUInt32BE(6 + length, 2);
  header.writeUInt32BE(2 + length, 6);
  header.writeUInt8(contextId, 10);
  header.writeUInt8((isCommand ? 0x01 : 0) | (isLast ? 0x02 : 0), 11);
  return header;
}
