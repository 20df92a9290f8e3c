import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildInstance } from '../../../src/dicom/write.js';
import {
  associateAcceptPdu,
  CONTEXT_RESULT,
  parseAssociateRequest,
} from '../../../src/dimse/association-pdu.js';
import {
  AssociationError,
  fileStoreSource,
  openAssociation,
  storageContexts,
  VERIFICATION_CONTEXT,
} from '../../../src/dimse/client/index.js';
import { baseSpec } from '../../dicom/support.js';

/**
 * Peers that misbehave after accepting the association: one that never answers a request and one
 * that stops reading. Each is a plain TCP server on 127.0.0.1 that answers the A-ASSOCIATE-RQ with
 * an AC accepting everything (our own acceptor encoding), then goes quiet.
 */
type Mode = 'silent' | 'not-reading';

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];

async function misbehavingPeer(mode: Mode): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.push(socket);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (head.length < 6) return;
      const length = head.readUInt32BE(2);
      if (head.length < 6 + length) return;
      socket.off('data', onData);
      const request = parseAssociateRequest(head.subarray(6, 6 + length));
      const answers = request.contexts.map((c) => ({
        id: c.id,
        result: CONTEXT_RESULT.acceptance,
        transferSyntax: c.transferSyntaxes[0]!,
      }));
      socket.write(associateAcceptPdu(request, answers, 16 * 1024));
      // Silent: read and drop everything. Not reading: leave the bytes in the kernel's buffers.
      if (mode === 'silent') socket.on('data', () => undefined);
      else socket.pause();
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('DICOM client timeouts', () => {
  it('aborts an association whose peer does not answer within the response limit, and never reuses it', async () => {
    const port = await misbehavingPeer('silent');
    const association = await openAssociation(
      { host: '127.0.0.1', port, aeTitle: 'SILENT' },
      { callingAe: 'INBOX', contexts: [VERIFICATION_CONTEXT], timeouts: { responseMs: 300 } },
    );
    const started = Date.now();
    const error = await association.echo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssociationError);
    expect((error as AssociationError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(association.usable).toBe(false);
    expect(association.closedReason).toMatch(/no response from the peer within 300 ms/);
    await expect(association.echo()).rejects.toBeInstanceOf(AssociationError);
  });

  it('fails a store whose peer stops reading once the write stalls, with the reason', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-scu-stall-'));
    try {
      const file = path.join(dir, 'big.dcm');
      // 4096×4096×2 bytes: far more than the socket buffers on both sides hold.
      fs.writeFileSync(file, buildInstance(baseSpec({ rows: 4096, columns: 4096 })));
      const source = await fileStoreSource(file);
      const port = await misbehavingPeer('not-reading');
      const association = await openAssociation(
        { host: '127.0.0.1', port, aeTitle: 'STUCK' },
        { callingAe: 'INBOX', contexts: storageContexts([source]), timeouts: { writeStallMs: 500 } },
      );
      const started = Date.now();
      const outcome = await association.store(source);
      expect(outcome.category).toBe('retry');
      expect(outcome.reason).toMatch(/stopped reading for 500 ms/);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(association.usable).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
