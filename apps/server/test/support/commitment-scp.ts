import net from 'node:net';
import {
  associateAcceptPdu,
  CONTEXT_RESULT,
  parseAssociateRequest,
  releaseResponsePdu,
} from '../../src/dimse/association-pdu.js';
import {
  COMMAND,
  commandPdu,
  element,
  parseIncomingCommandSet,
  responsePdu,
  uid,
  ushortValue,
} from '../../src/dimse/command-set.js';
import type { CommandSet } from '../../src/dimse/command-set.js';
import { datasetPdus } from '../../src/dimse/client/pdv.js';
import { decodeIdentifier, encodeIdentifier } from '../../src/dimse/client/identifier.js';
import type { DicomAttributes } from '../../src/dimse/client/types.js';
import { PDU, PduReader } from '../../src/dimse/pdu-reader.js';
import { STORAGE_COMMITMENT_CLASS, STORAGE_COMMITMENT_INSTANCE } from '../../src/dimse/storage-commitment.js';

/**
 * A small storage SCP that also takes storage commitment N-ACTIONs, for the cases Orthanc does not
 * show: `same-association` reports on the N-ACTION's own association (every instance committed but
 * those in `fail`), `silent` answers the N-ACTION and never reports. Every C-STORE answers success.
 */
export interface CommitmentScp {
  port: number;
  mode: 'same-association' | 'silent';
  /** Report the first instance each N-ACTION names failed (no such object instance). */
  failFirst: boolean;
  /** N-ACTIONs received: the transaction and the instances named. */
  actions: { transactionUid: string; instances: string[] }[];
  stores: number;
  close(): Promise<void>;
}

export async function startCommitmentScp(mode: CommitmentScp['mode']): Promise<CommitmentScp> {
  const sockets = new Set<net.Socket>();
  const scp: CommitmentScp = {
    port: 0,
    mode,
    failFirst: false,
    actions: [],
    stores: 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const syntaxes = new Map<number, string>();
    let command: { contextId: number; chunks: Buffer[]; parsed?: CommandSet; data: Buffer[] } | undefined;
    const reader = new PduReader(
      {
        controlPdu(type, body) {
          if (type === PDU.associateRq) {
            const request = parseAssociateRequest(body);
            const answers = request.contexts.map((c) => {
              syntaxes.set(c.id, c.transferSyntaxes[0]!);
              return { id: c.id, result: CONTEXT_RESULT.acceptance, transferSyntax: c.transferSyntaxes[0]! };
            });
            socket.write(associateAcceptPdu(request, answers, 256 * 1024));
          } else if (type === PDU.releaseRq) socket.end(releaseResponsePdu());
          else socket.destroy();
        },
        pdvData(contextId, isCommand, slice) {
          command ??= { contextId, chunks: [], data: [] };
          (isCommand ? command.chunks : command.data).push(Buffer.from(slice));
        },
        pdvEnd(contextId, isCommand, isLast) {
          if (!isLast || !command) return;
          if (isCommand) {
            try {
              command.parsed = parseIncomingCommandSet(Buffer.concat(command.chunks));
            } catch {
              // Our N-EVENT-REPORT-RSP: nothing to answer.
              command = undefined;
              return;
            }
            if (command.parsed.hasDataset) return;
          }
          const done = command;
          command = undefined;
          answer(done.contextId, done.parsed!, Buffer.concat(done.data));
        },
        protocolError() {
          socket.destroy();
        },
      },
      256 * 1024,
    );
    socket.on('data', (chunk: Buffer) => reader.push(chunk));

    const answer = (contextId: number, rq: CommandSet, dataset: Buffer) => {
      if (rq.commandField === COMMAND.cStoreRq) {
        scp.stores++;
        socket.write(
          responsePdu({
            presentationContextId: contextId,
            commandField: COMMAND.cStoreRsp,
            messageIdBeingRespondedTo: rq.messageId,
            affectedSopClassUid: rq.affectedSopClassUid,
            affectedSopInstanceUid: rq.affectedSopInstanceUid,
            status: 0,
          }),
        );
        return;
      }
      if (rq.commandField !== COMMAND.nActionRq) return;
      const syntax = syntaxes.get(contextId)!;
      const asked = decodeIdentifier(dataset, syntax);
      const items = (asked['ReferencedSOPSequence'] as DicomAttributes[]).map((i) => ({
        ReferencedSOPClassUID: i['ReferencedSOPClassUID'] as string,
        ReferencedSOPInstanceUID: i['ReferencedSOPInstanceUID'] as string,
      }));
      const transactionUid = asked['TransactionUID'] as string;
      scp.actions.push({ transactionUid, instances: items.map((i) => i.ReferencedSOPInstanceUID) });
      socket.write(
        commandPdu(contextId, [
          element(0x0002, uid(STORAGE_COMMITMENT_CLASS)),
          element(0x0100, ushortValue(COMMAND.nActionRsp)),
          element(0x0120, ushortValue(rq.messageId)),
          element(0x0800, ushortValue(0x0101)),
          element(0x0900, ushortValue(0)),
          element(0x1000, uid(STORAGE_COMMITMENT_INSTANCE)),
          element(0x1008, ushortValue(1)),
        ]),
      );
      if (scp.mode === 'silent') return;
      const failed = scp.failFirst ? items.slice(0, 1) : [];
      const committed = items.slice(failed.length);
      const report = encodeIdentifier(
        {
          TransactionUID: transactionUid,
          ReferencedSOPSequence: committed,
          ...(failed.length
            ? { FailedSOPSequence: failed.map((i) => ({ ...i, FailureReason: '274' })) }
            : {}),
        },
        syntax,
      );
      setTimeout(() => {
        socket.write(
          Buffer.concat([
            commandPdu(contextId, [
              element(0x0002, uid(STORAGE_COMMITMENT_CLASS)),
              element(0x0100, ushortValue(COMMAND.nEventReportRq)),
              element(0x0110, ushortValue(1)),
              element(0x0800, ushortValue(0x0000)),
              element(0x1000, uid(STORAGE_COMMITMENT_INSTANCE)),
              element(0x1002, ushortValue(failed.length ? 2 : 1)),
            ]),
            ...datasetPdus(contextId, report, 16 * 1024),
          ]),
        );
      }, 100);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scp.port = (server.address() as net.AddressInfo).port;
  return scp;
}
