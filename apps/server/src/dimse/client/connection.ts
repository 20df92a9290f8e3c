/**
 * The transport under one client association: the socket, PDU framing in (the listener's
 * `PduReader`), DIMSE messages re-assembled per presentation context, writes that wait on `drain`
 * under a stall limit, and one place where the association ends (released, aborted, timed out,
 * dropped) so every waiter learns it at once. Operations live in `association.ts`.
 */
import net from 'node:net';
import tls from 'node:tls';
import { AssociationParseError } from '../association-pdu.js';
import { COMMAND, CommandParseError, parseResponseCommandSet } from '../command-set.js';
import type { CommandSet } from '../command-set.js';
import { PDU, PduReader } from '../pdu-reader.js';
import type { PduHandler } from '../pdu-reader.js';
import {
  associateRequestPdu,
  describeAbort,
  parseAssociateAccept,
  parseAssociateReject,
  releaseRequestPdu,
  userAbortPdu,
} from './associate-pdu.js';
import type { AssociateAccept, RequestedContext } from './associate-pdu.js';
import { AssociationError, describeReject } from './errors.js';
import type { Peer, Timeouts } from './types.js';

/** Our receive limit, announced in the A-ASSOCIATE-RQ. */
export const CLIENT_MAX_PDU = 256 * 1024;

/** One DIMSE message received: its command and, when one followed, its dataset. */
export interface Message {
  contextId: number;
  command: CommandSet;
  dataset?: Buffer;
}

/** Someone waiting for the responses to one request. */
interface Waiter {
  messageId: number;
  /** Answers true when this response was the last one expected. */
  onResponse(message: Message): boolean;
  resolve(): void;
  reject(error: AssociationError): void;
  timeoutMs: number;
  timer?: NodeJS.Timeout;
}

interface Assembling {
  commandChunks: Buffer[];
  command?: CommandSet;
  datasetChunks: Buffer[];
}

type Phase = 'requesting' | 'established' | 'releasing' | 'closed';

export class Connection implements PduHandler {
  private phase: Phase = 'requesting';
  private readonly reader = new PduReader(this, CLIENT_MAX_PDU);
  private readonly assembling = new Map<number, Assembling>();
  private waiter: Waiter | undefined;
  private drainWaiter: { resolve(): void; reject(error: AssociationError): void } | undefined;
  private onAssociate: ((accept: AssociateAccept) => void) | undefined;
  private onReleased: (() => void) | undefined;
  private closeError: AssociationError | undefined;
  private readonly closeListeners: ((error: AssociationError) => void)[] = [];
  /**
   * Who takes a request the peer sends us (N-EVENT-REPORT-RQ: a storage commitment report on our
   * N-ACTION's association); without one such a request is a protocol error.
   */
  onRequest: ((message: Message) => void) | undefined;

  private constructor(
    private readonly socket: net.Socket,
    readonly timeouts: Timeouts,
  ) {
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('error', (error) =>
      this.close(new AssociationError('closed', `connection lost: ${error.message}`)),
    );
    socket.on('close', () => this.close(new AssociationError('closed', 'connection closed by the peer')));
  }

  /** Connects and negotiates; answers the connection and the A-ASSOCIATE-AC, or throws AssociationError. */
  static async open(
    peer: Peer,
    callingAe: string,
    contexts: RequestedContext[],
    timeouts: Timeouts,
  ): Promise<{ connection: Connection; accept: AssociateAccept }> {
    const request = associateRequestPdu(peer.aeTitle, callingAe, contexts, CLIENT_MAX_PDU);
    const socket = await connect(peer, timeouts.connectMs);
    const connection = new Connection(socket, timeouts);
    const accept = await new Promise<AssociateAccept>((resolve, reject) => {
      const timer =
        timeouts.associateMs > 0
          ? setTimeout(
              () =>
                connection.fail(
                  new AssociationError(
                    'timeout',
                    `no answer to the association request within ${timeouts.associateMs} ms`,
                  ),
                ),
              timeouts.associateMs,
            )
          : undefined;
      connection.onAssociate = (accepted) => {
        clearTimeout(timer);
        resolve(accepted);
      };
      connection.closeListeners.push((error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.write(request);
    });
    return { connection, accept };
  }

  get usable(): boolean {
    return this.phase === 'established';
  }

  get closedReason(): string | undefined {
    return this.closeError?.message;
  }

  /** The error the association ended with (undefined while it is open). */
  get error(): AssociationError | undefined {
    return this.closeError;
  }

  // --- requests ---------------------------------------------------------------------------------

  /**
   * Registers the waiter for a request's responses before the request is written, so an early
   * answer is not lost. Resolves at the last response; rejects when the association ends or a
   * response does not come within `timeoutMs` (0: no limit), which aborts it.
   */
  expect(messageId: number, timeoutMs: number, onResponse: (message: Message) => boolean): Promise<void> {
    if (this.closeError) return Promise.reject(this.closeError);
    if (this.waiter) throw new Error('a request is already outstanding on this association');
    return new Promise<void>((resolve, reject) => {
      this.waiter = { messageId, onResponse, resolve, reject, timeoutMs };
      this.armResponseTimer();
    });
  }

  /** Changes the response limit of the outstanding request (e.g. waiting for a C-CANCEL's answer). */
  setResponseTimeout(timeoutMs: number): void {
    if (!this.waiter) return;
    this.waiter.timeoutMs = timeoutMs;
    this.armResponseTimer();
  }

  private armResponseTimer(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    clearTimeout(waiter.timer);
    if (waiter.timeoutMs <= 0) return;
    waiter.timer = setTimeout(
      () =>
        this.fail(new AssociationError('timeout', `no response from the peer within ${waiter.timeoutMs} ms`)),
      waiter.timeoutMs,
    );
  }

  /**
   * Writes bytes as one corked batch (a PDU header and its payload slices leave together even
   * with no-delay); waits for `drain` when the socket's buffer is full, aborting past the stall limit.
   */
  async write(parts: Buffer[]): Promise<void> {
    if (this.closeError) throw this.closeError;
    this.socket.cork();
    let flowing = true;
    for (const part of parts) flowing = this.socket.write(part);
    this.socket.uncork();
    if (flowing) return;
    await new Promise<void>((resolve, reject) => {
      const limit = this.timeouts.writeStallMs;
      const timer =
        limit > 0
          ? setTimeout(
              () => this.fail(new AssociationError('timeout', `the peer stopped reading for ${limit} ms`)),
              limit,
            )
          : undefined;
      const done = () => {
        clearTimeout(timer);
        this.socket.off('drain', done);
        this.drainWaiter = undefined;
        resolve();
      };
      this.drainWaiter = {
        resolve: done,
        reject: (error) => {
          clearTimeout(timer);
          this.socket.off('drain', done);
          this.drainWaiter = undefined;
          reject(error);
        },
      };
      this.socket.on('drain', done);
    });
  }

  /** A-RELEASE-RQ, then the RP; aborts instead when it does not come in time. */
  async release(): Promise<void> {
    if (this.phase !== 'established') return;
    this.phase = 'releasing';
    const limit = this.timeouts.releaseMs;
    await new Promise<void>((resolve) => {
      const timer =
        limit > 0
          ? setTimeout(() => {
              this.fail(new AssociationError('timeout', `no A-RELEASE-RP within ${limit} ms`));
              resolve();
            }, limit)
          : undefined;
      this.onReleased = () => {
        clearTimeout(timer);
        resolve();
      };
      this.closeListeners.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.write(releaseRequestPdu());
    });
  }

  /** Ends the association with `error`: A-ABORT to the peer (when it can still hear it), socket closed. */
  fail(error: AssociationError): void {
    if (this.closeError) return;
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(userAbortPdu());
    this.close(error);
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }

  private close(error: AssociationError): void {
    if (this.closeError) return;
    this.closeError = error;
    this.phase = 'closed';
    this.assembling.clear();
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.drainWaiter?.reject(error);
    for (const listener of this.closeListeners.splice(0)) listener(error);
    if (!this.socket.destroyed) this.socket.destroy();
  }

  // --- PduHandler -------------------------------------------------------------------------------

  controlPdu(type: number, body: Buffer): void {
    if (type === PDU.associateAc && this.phase === 'requesting') {
      let accept: AssociateAccept;
      try {
        accept = parseAssociateAccept(body);
      } catch (error) {
        return this.protocolError(`unreadable A-ASSOCIATE-AC: ${String(error)}`);
      }
      this.phase = 'established';
      this.onAssociate?.(accept);
    } else if (type === PDU.associateRj && this.phase === 'requesting') {
      const reject = parseAssociateReject(body);
      this.close(
        new AssociationError('rejected', describeReject(reject.result, reject.source, reject.reason), reject),
      );
    } else if (type === PDU.releaseRp && this.phase === 'releasing') {
      this.close(new AssociationError('closed', 'association released'));
      this.onReleased?.();
    } else if (type === PDU.releaseRq) {
      // The peer releases: answer, and whatever was outstanding is lost with the association.
      this.socket.end(Buffer.from([PDU.releaseRp, 0, 0, 0, 0, 4, 0, 0, 0, 0]));
      this.close(new AssociationError('closed', 'the peer released the association'));
    } else if (type === PDU.abort) {
      this.close(new AssociationError('aborted', describeAbort(body)));
    } else {
      this.protocolError(`unexpected PDU 0x${type.toString(16)} while ${this.phase}`);
    }
  }

  pdvData(contextId: number, isCommand: boolean, slice: Buffer): void {
    if (this.phase !== 'established' && this.phase !== 'releasing') {
      return this.protocolError(`P-DATA-TF while ${this.phase}`);
    }
    let message = this.assembling.get(contextId);
    if (!message) {
      message = { commandChunks: [], datasetChunks: [] };
      this.assembling.set(contextId, message);
    }
    if (isCommand) {
      if (message.command) return this.protocolError('command fragment after a complete command');
      message.commandChunks.push(slice);
    } else {
      if (!message.command?.hasDataset) return this.protocolError('dataset fragment without a command');
      message.datasetChunks.push(slice);
    }
  }

  pdvEnd(contextId: number, isCommand: boolean, isLast: boolean): void {
    if (!isLast) return;
    const message = this.assembling.get(contextId);
    if (!message) return;
    if (isCommand) {
      try {
        message.command = parseResponseCommandSet(Buffer.concat(message.commandChunks));
      } catch (error) {
        if (error instanceof CommandParseError) return this.protocolError(error.message);
        throw error;
      }
      message.commandChunks = [];
      if (message.command.hasDataset) return;
      this.assembling.delete(contextId);
      this.deliver({ contextId, command: message.command });
    } else {
      this.assembling.delete(contextId);
      this.deliver({ contextId, command: message.command!, dataset: Buffer.concat(message.datasetChunks) });
    }
  }

  protocolError(reason: string): void {
    this.fail(new AssociationError('protocol', `protocol error: ${reason}`));
  }

  /** Adds a listener told once when the association ends (at once when it has ended). */
  whenClosed(listener: (error: AssociationError) => void): void {
    if (this.closeError) listener(this.closeError);
    else this.closeListeners.push(listener);
  }

  private deliver(message: Message): void {
    if (message.command.commandField === COMMAND.nEventReportRq) {
      if (!this.onRequest) return this.protocolError('N-EVENT-REPORT-RQ that nothing waits for');
      return this.onRequest(message);
    }
    const waiter = this.waiter;
    if (!waiter || waiter.messageId !== message.command.messageIdBeingRespondedTo) {
      return this.protocolError(
        `response to message ${message.command.messageIdBeingRespondedTo}, which is not outstanding`,
      );
    }
    let last: boolean;
    try {
      last = waiter.onResponse(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return this.protocolError(`unreadable response: ${reason}`);
    }
    if (!last) return this.armResponseTimer();
    clearTimeout(waiter.timer);
    this.waiter = undefined;
    waiter.resolve();
  }
}

/**
 * A TCP connection to the peer, or over TLS (1.2 or later, the peer's certificate checked against
 * its CA and its configured name) when `peer.tls` is set; resolved once the handshake is done.
 */
function connect(peer: Peer, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const secure = peer.tls;
    const serverName = secure?.serverName ?? peer.host;
    const socket = secure
      ? tls.connect({
          host: peer.host,
          port: peer.port,
          minVersion: 'TLSv1.2',
          ca: secure.ca,
          cert: secure.cert,
          key: secure.key,
          // SNI takes host names only; the identity check runs against the configured name either way.
          servername: net.isIP(serverName) ? undefined : serverName,
          checkServerIdentity: (_host, certificate) => tls.checkServerIdentity(serverName, certificate),
        })
      : net.connect({ host: peer.host, port: peer.port, noDelay: true });
    // The handshake's small records must not wait for Nagle either.
    if (secure) socket.setNoDelay(true);
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            socket.destroy();
            reject(
              new AssociationError(
                'connect',
                `could not connect to ${peer.host}:${peer.port} within ${timeoutMs} ms`,
              ),
            );
          }, timeoutMs)
        : undefined;
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      // Commands and small PDUs must not wait for Nagle; bulk data goes out in full PDUs anyway.
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error: Error) => {
      clearTimeout(timer);
      reject(
        new AssociationError('connect', `could not connect to ${peer.host}:${peer.port}: ${error.message}`),
      );
    });
  });
}

export { AssociationParseError };
