import { HL7_SENDER_ID_MAX_LENGTH, orderAddRequest } from '@imaging-inbox/contract';
import type { OrderStatus } from '@imaging-inbox/contract';
import { buildAck, hl7Time, Hl7ParseError, parseHl7, segment, segmentsOf, value } from '../../hl7/message.js';
import type { AckCode, Hl7Message } from '../../hl7/message.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { Hl7SendersRepository } from '../pacs/index.js';
import type { Hl7ResultsRepository } from './hl7-results.repository.js';
import type { OrdersRepository } from './orders.repository.js';
import { auditEvent, type AuditService } from '../../audit/audit.service.js';
import type { OrderFields, OrderService } from './order.service.js';
import { orderFieldsOf } from './order.service.js';
import { newUuid } from '../../security/tokens.js';

interface Deps {
  accounts: AccountsRepository;
  orders: OrdersRepository;
  orderService: OrderService;
  results: Hl7ResultsRepository;
  /** The registered senders: who may write to which account (decision 0056). */
  senders: Hl7SendersRepository;
  audit: AuditService;
  /** Where a rejected sender is reported, so an operator sees whom to register (or block). */
  log?: (line: string) => void;
  now?: () => number;
}

/** A message refused with the reason its sender reads in the ACK (MSA-3). */
class Refused extends Error {}

/** A message rejected (AR) before anything of it is applied: an unknown sender, another account. */
class Rejected extends Error {}

/** ORC-1 order controls: new, change, cancel (and its kin), status change. */
const CANCELS = new Set(['CA', 'OC', 'DC', 'OD']);
/** ORC-5 order status of a status change (SC). */
const STATUS_OF: Record<string, OrderStatus> = {
  SC: 'SCHEDULED',
  IP: 'IN_PROGRESS',
  CM: 'COMPLETED',
  CA: 'CANCELLED',
  DC: 'CANCELLED',
};

/**
 * HL7 v2 messages received over MLLP (SPEC.md, Search Order and Reports): ORM^O01 creates, updates
 * or cancels an account's order by its accession number; ORU^R01 stores a report result for its
 * accession number. Only a registered sender is heard (decision 0056): the connection's address and
 * the sending facility (MSH-4, with the sending application MSH-3 when registered) name it, and
 * it writes to its own account only; a receiving facility (MSH-6) that names another account, or
 * none known, is rejected. Every message is answered: AA when applied, AE with the reason when
 * not, AR when it cannot be read or its sender may not write there.
 */
export class Hl7InboxService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  /** The ACK of one message's bytes, received on a connection from `peer` (an IP address). */
  async handle(bytes: Buffer, peer: string): Promise<string> {
    let message: Hl7Message;
    try {
      message = parseHl7(decode(bytes));
    } catch (error) {
      if (error instanceof Hl7ParseError) return this.ack(null, 'AR', error.message);
      throw error;
    }
    try {
      const accountId = await this.senderAccount(message, peer);
      const text = await this.apply(message, accountId);
      return this.ack(message, 'AA', text);
    } catch (error) {
      if (error instanceof Rejected) {
        this.deps.log?.(`HL7 message rejected: ${error.message}`);
        return this.ack(message, 'AR', error.message);
      }
      if (error instanceof Refused) return this.ack(message, 'AE', error.message);
      throw error;
    }
  }

  /**
   * The account the message may write to: its registered sender's. MSH-6 may name that account
   * (vanity or uuid, in any case) or be empty; naming any other, known or not, is rejected with
   * the same words, so a sender learns nothing about other accounts.
   */
  private async senderAccount(message: Hl7Message, peer: string): Promise<string> {
    const msh = segment(message, 'MSH');
    const facility = value(message, msh, 4);
    const application = value(message, msh, 3);
    // Ids longer than any registered one name no sender: not worth a query.
    const sender =
      facility.length <= HL7_SENDER_ID_MAX_LENGTH && application.length <= HL7_SENDER_ID_MAX_LENGTH
        ? await this.deps.senders.match(peer, facility, application)
        : undefined;
    if (!sender)
      throw new Rejected(
        `sender ${shown(facility) || '(empty MSH-4)'} at ${peer} is not registered with any account`,
      );
    const receiving = value(message, msh, 6);
    if (!receiving) return sender.account_id;
    const account =
      (await this.deps.accounts.findAccountByVanity(receiving)) ??
      (await this.deps.accounts.findAccount(receiving));
    if (account?.uuid !== sender.account_id)
      throw new Rejected(`MSH-6 (receiving facility) ${shown(receiving)} is not this sender's account`);
    return sender.account_id;
  }

  /** The answer to a message too large to read. */
  tooLarge(maxBytes: number): string {
    return this.ack(null, 'AR', `message larger than ${maxBytes} bytes`);
  }

  private ack(message: Hl7Message | null, code: AckCode, text: string): string {
    return buildAck(message, code, text, new Date(this.now()));
  }

  private async apply(message: Hl7Message, accountId: string): Promise<string> {
    const msh = segment(message, 'MSH');
    const type = `${value(message, msh, 9, 1)}^${value(message, msh, 9, 2)}`;
    if (type !== 'ORM^O01' && type !== 'ORU^R01') {
      throw new Refused(`message type ${type} is not accepted (ORM^O01, ORU^R01)`);
    }
    const controlId = value(message, msh, 10);
    if (!controlId) throw new Refused('MSH-10 (message control id) is empty');
    return type === 'ORM^O01'
      ? this.order(message, accountId, controlId)
      : this.result(message, accountId, controlId);
  }

  private async order(message: Hl7Message, accountId: string, controlId: string): Promise<string> {
    const orc = segment(message, 'ORC');
    const obr = segment(message, 'OBR');
    const control = value(message, orc, 1).toUpperCase() || 'NW';
    const accession = accessionOf(message);
    const existing = await this.deps.orders.byAccession(accountId, accession);
    const detail = { control_id: controlId, order_control: control };

    if (CANCELS.has(control) || control === 'SC') {
      if (!existing) throw new Refused(`no order with accession number ${accession}`);
      const status = CANCELS.has(control) ? 'CANCELLED' : STATUS_OF[value(message, orc, 5).toUpperCase()];
      if (!status)
        throw new Refused(`ORC-5 order status ${value(message, orc, 5) || '(empty)'} is not known`);
      await this.deps.orderService.change(existing, {}, status, detail);
      return `order ${accession} ${status.toLowerCase()}`;
    }
    if (control !== 'NW' && control !== 'XO')
      throw new Refused(`ORC-1 order control ${control} is not accepted`);

    const fields = this.orderFields(message, accountId, accession, obr);
    if (existing) {
      await this.deps.orderService.change(existing, fields, 'SCHEDULED', detail);
      return `order ${accession} updated`;
    }
    const created = await this.deps.orderService.create(accountId, fields, 'HL7', {
      userId: null,
      ip: null,
      detail,
    });
    // Two senders racing with the same new order: the other one made it; this one changes nothing.
    return created ? `order ${accession} created` : `order ${accession} exists`;
  }

  /** The order's attributes, checked as order/add checks them (the reason names the HL7 field). */
  private orderFields(
    message: Hl7Message,
    accountId: string,
    accession: string,
    obr: string[] | undefined,
  ): OrderFields {
    const pid = segment(message, 'PID');
    const orc = segment(message, 'ORC');
    const pv1 = segment(message, 'PV1');
    const modality = value(message, obr, 24).toUpperCase();
    const raw = {
      account_id: accountId,
      accession_number: accession,
      patient_name: personName(message, pid, 5, 1),
      patientid: value(message, pid, 3),
      patient_birth_date: value(message, pid, 7).slice(0, 8),
      patient_sex: sexOf(value(message, pid, 8)),
      requested_procedure: value(message, obr, 4, 2) || value(message, obr, 4, 1),
      modality: /^[A-Z]{2,4}$/.test(modality) ? modality : '',
      scheduled_date: (
        value(message, obr, 36) ||
        value(message, orc, 7, 4) ||
        value(message, obr, 27, 4) ||
        value(message, obr, 7)
      ).slice(0, 8),
      referring_physician:
        personName(message, obr, 16, 2) || personName(message, pv1, 8, 2) || personName(message, orc, 12, 2),
    };
    const checked = orderAddRequest.safeParse(raw);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      throw new Refused(
        `${HL7_FIELD[field] ?? field}: ${issue.message === 'required' ? 'required' : issue.message}`,
      );
    }
    return orderFieldsOf(checked.data);
  }

  private async result(message: Hl7Message, accountId: string, controlId: string): Promise<string> {
    const obr = segment(message, 'OBR');
    const accession = accessionOf(message);
    const observations = segmentsOf(message, 'OBX');
    const text = observations
      .flatMap((obx) => repetitions(message, obx, 5))
      .join('\n')
      .trim();
    if (!text) throw new Refused('no report text (OBX-5)');
    const resultStatus = value(message, obr, 25).toUpperCase();
    const status = resultStatus === 'F' || resultStatus === 'C' ? 'Final' : 'Preliminary';
    const author =
      interpreter(message, obr) ||
      displayName(personName(message, observations[0], 16, 2)) ||
      displayName(personName(message, obr, 16, 2));
    const now = this.now();
    const uuid = newUuid();
    const row = {
      uuid,
      account_id: accountId,
      accession_number: accession,
      result_id: value(message, obr, 3) || value(message, obr, 2) || accession,
      status,
      author,
      observed: hl7Time(value(message, obr, 22)) ?? hl7Time(value(message, obr, 7)),
      title: value(message, obr, 4, 2) || value(message, obr, 4, 1) || 'Report',
      text: text.slice(0, 100_000),
      control_id: controlId,
      created: now,
      updated: now,
    };
    await this.deps.results.upsert(
      row,
      this.deps.audit.row(
        auditEvent(
          { userId: null },
          accountId,
          'HL7_RESULT',
          { type: 'accession', id: accession },
          {
            detail: { control_id: controlId, status, result_id: row.result_id },
          },
        ),
      ),
    );
    return `${status.toLowerCase()} result for ${accession} stored`;
  }
}

/** Where each order attribute comes from, for the reason of a refusal. */
const HL7_FIELD: Record<string, string> = {
  accession_number: 'OBR-18 / ORC-3 (accession number)',
  patient_name: 'PID-5 (patient name)',
  patientid: 'PID-3 (patient id)',
  patient_birth_date: 'PID-7 (birth date)',
  patient_sex: 'PID-8 (sex)',
  requested_procedure: 'OBR-4 (universal service id)',
  scheduled_date: 'OBR-36 (scheduled date)',
  referring_physician: 'OBR-16 (ordering provider)',
};

/** A sender-chosen id as our answers and log quote it: at most 64 characters. */
function shown(id: string): string {
  return id.length > 64 ? `${id.slice(0, 64)}…` : id;
}

/** The accession number: OBR-18 (placer field 1), else the filler's then the placer's order number. */
function accessionOf(message: Hl7Message): string {
  const obr = segment(message, 'OBR');
  const orc = segment(message, 'ORC');
  const accession =
    value(message, obr, 18) ||
    value(message, orc, 3) ||
    value(message, obr, 3) ||
    value(message, orc, 2) ||
    value(message, obr, 2);
  if (!accession) throw new Refused('no accession number (OBR-18, ORC-3 or ORC-2)');
  return accession;
}

/**
 * An HL7 person name (XPN, or XCN from `first` on: family, given, middle, suffix, prefix) as a DICOM
 * person name (family^given^middle^prefix^suffix, trailing empties dropped).
 */
function personName(message: Hl7Message, seg: string[] | undefined, field: number, first: number): string {
  const part = (n: number) => value(message, seg, field, first + n).replaceAll('^', ' ');
  const dicom = [part(0), part(1), part(2), part(4), part(3)];
  while (dicom.length && !dicom.at(-1)) dicom.pop();
  return dicom.join('^');
}

/** A DICOM person name as people read it: 'Given Family'. */
function displayName(pn: string): string {
  const [family = '', given = ''] = pn.split('^');
  return [given, family].filter(Boolean).join(' ');
}

/** OBR-32 principal result interpreter: its first component's subcomponents are id & family & given. */
function interpreter(message: Hl7Message, obr: string[] | undefined): string {
  const raw = value(message, obr, 32, 0).split(message.separators.component)[0] ?? '';
  const [, family = '', given = ''] = raw.split(message.separators.subcomponent);
  return [given, family].filter(Boolean).join(' ').trim();
}

/** Every repetition of a field, unescaped (an OBX-5 report's lines). */
function repetitions(message: Hl7Message, seg: string[], field: number): string[] {
  const raw = seg[field] ?? '';
  return raw.split(message.separators.repetition).map((rep) => value(message, [seg[0]!, rep], 1, 0));
}

function sexOf(code: string): string {
  const c = code.toUpperCase();
  if (c === 'M' || c === 'F') return c;
  return c ? 'O' : '';
}

/** The message's text: Latin-1 when MSH-18 says ISO 8859-1, else UTF-8. */
function decode(bytes: Buffer): string {
  const head =
    bytes
      .subarray(0, 1024)
      .toString('latin1')
      .split(/[\r\n]/)[0] ?? '';
  return /8859\/1/.test(head) ? bytes.toString('latin1') : bytes.toString('utf8');
}
