import type { AtnaOutboxRepository } from './atna-outbox.repository.js';
import type { AuditSource } from './audit-message.js';
import { auditMessageXml } from './audit-message.js';
import type { SyslogHeader } from './syslog-frame.js';
import { syslogMessage } from './syslog-frame.js';
import type { SyslogConnection } from './syslog-transport.js';

/** Queued events read and sent at a time; each batch's sent rows are removed together. */
const BATCH = 100;

export interface AtnaSenderDeps {
  outbox: Pick<AtnaOutboxRepository, 'next' | 'remove'>;
  open: () => Promise<SyslogConnection>;
  source: AuditSource;
  header: SyslogHeader;
}

/**
 * Drains the queue to the collector in order over one connection: a batch is read, each message
 * sent, and the rows handed to the network are removed, also when a later send of the batch
 * failed, so a retry starts at the first message not sent. Syslog has no acknowledgement: a
 * message is gone from the queue once written to the connection (at least once, possibly twice if
 * the process dies between the write and the removal).
 */
export class AtnaSender {
  constructor(private readonly deps: AtnaSenderDeps) {}

  /** Sends until the queue is empty; throws (to be retried) when the collector cannot be reached. */
  async drain(signal?: AbortSignal): Promise<number> {
    let connection: SyslogConnection | undefined;
    let total = 0;
    try {
      for (;;) {
        if (signal?.aborted) return total;
        const events = await this.deps.outbox.next(BATCH);
        if (!events.length) return total;
        connection ??= await this.deps.open();
        const sent: number[] = [];
        try {
          for (const event of events) {
            if (signal?.aborted) break;
            const xml = auditMessageXml(event, this.deps.source);
            await connection.send(syslogMessage(this.deps.header, event.at, xml));
            sent.push(event.queueId);
          }
        } finally {
          await this.deps.outbox.remove(sent);
          total += sent.length;
        }
      }
    } finally {
      await connection?.close();
    }
  }
}
