import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

type Answer = { code: number; text: string } | null;

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, and can be told to answer a
 * delivery with a 4xx or 5xx reply, or to be down (nothing listening on its port).
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  private port = 0;
  private refusals: { code: number; text: string }[] = [];
  private rules: ((to: string[]) => Answer)[] = [];

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address);
          const answer = this.refusals.shift() ?? this.rules.map((r) => r(to)).find((a) => a) ?? null;
          if (answer) {
            const error = Object.assign(new Error(answer.text), { responseCode: answer.code });
            return callback(error);
          }
          this.received.push({ to, raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening; start() again listens on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next delivery (whoever it is for) is answered with this reply. */
  refuseNext(code: number, text = code >= 500 ? 'Rejected' : 'Try again later'): void {
    this.refusals.push({ code, text });
  }

  /** Every delivery to this address is answered with this reply. */
  refuseAddress(address: string, code: number, text = 'Rejected'): void {
    this.rules.push((to) => (to.includes(address) ? { code, text } : null));
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((m) => m.to.includes(address));
  }
}
