import nodemailer from 'nodemailer';
import type { OutboxRepository } from '../repositories/outbox.repository.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Every mail is written to the outbox table (the dev page and tests read it); with an SMTP URL it
 * is also sent, and the row records when.
 */
export class Mailer {
  private readonly transport;

  constructor(
    private readonly outbox: OutboxRepository,
    smtpUrl: string | undefined,
    private readonly from: string,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  }

  async send(mail: Mail): Promise<void> {
    let sent: number | null = null;
    if (this.transport) {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
      sent = Date.now();
    }
    await this.outbox.insert({
      to_address: mail.to,
      subject: mail.subject,
      body: mail.text,
      created: Date.now(),
      sent,
    });
  }
}
