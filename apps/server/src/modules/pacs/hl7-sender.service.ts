import {
  HL7_SENDER_ID_MAX_LENGTH,
  HL7_SENDER_NAME_MAX_LENGTH,
  type Hl7Sender,
} from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import { normalIpAddress } from '../../hl7/peer-address.js';
import type { Caller } from '../../policies/index.js';
import { requireAccountAdmin, requireAdministered } from '../../policies/index.js';
import { hl7IdKey, type Hl7SenderRow, type Hl7SendersRepository } from './hl7-senders.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { auditAdmin, type AdminAudit } from '../../audit/admin-audit.js';
import { givenFields } from '../../domain/given-fields.js';
import { newUuid } from '../../security/tokens.js';

export interface Hl7SenderFields {
  name?: string | undefined;
  host?: string | undefined;
  facility?: string | undefined;
  application?: string | undefined;
}

interface Deps {
  senders: Hl7SendersRepository;
  audit: AuditService;
  now?: () => number;
}

/** Printable characters that are not HL7's own separators (an MSH-3/MSH-4 namespace id). */
const HL7_ID = /^[\x20-\x7e]+$/;
const SEPARATORS = /[|^~\\&]/;

/**
 * The HL7 senders of an account (decision 0056), managed by its admins as its DICOM nodes are:
 * the MLLP listener accepts a message only from a registered (address, MSH-4 [, MSH-3]), and only
 * for that sender's account. Another account's senders answer NOT_FOUND, as a made-up uuid does.
 */
export class Hl7SenderService {
  private readonly admin: AdminAudit<Hl7SenderRow>;

  constructor(private readonly deps: Deps) {
    this.admin = auditAdmin(deps.audit, 'hl7_sender', auditView);
  }

  async list(caller: Caller, accountId: string): Promise<Hl7Sender[]> {
    requireAccountAdmin(caller, accountId);
    return (await this.deps.senders.listOfAccount(accountId)).map(present);
  }

  async add(caller: Caller, accountId: string, fields: Hl7SenderFields): Promise<Hl7Sender> {
    requireAccountAdmin(caller, accountId);
    for (const field of ['host', 'facility'] as const) {
      if (!fields[field]?.trim()) throw invalidField(field, 'is required');
    }
    const valid = validate(fields);
    const row: Hl7SenderRow = {
      uuid: newUuid(),
      account_id: accountId,
      name: valid.name || valid.facility!,
      host: valid.host!,
      facility: valid.facility!,
      facility_key: hl7IdKey(valid.facility),
      application: valid.application ?? null,
      application_key: hl7IdKey(valid.application),
      created: (this.deps.now ?? Date.now)(),
    };
    await this.admin.add(caller, row, () => this.save(row, undefined, () => this.deps.senders.insert(row)));
    return present(row);
  }

  async set(caller: Caller, uuid: string, fields: Hl7SenderFields): Promise<Hl7Sender> {
    const sender = await this.visible(caller, uuid);
    const valid = validate(fields);
    const changes = givenFields({
      name: valid.name === undefined ? undefined : valid.name || (valid.facility ?? sender.facility),
      host: valid.host,
      facility: valid.facility,
      facility_key: valid.facility === undefined ? undefined : hl7IdKey(valid.facility),
      application: valid.application,
      application_key: valid.application === undefined ? undefined : hl7IdKey(valid.application),
    });
    const write = (written: typeof changes) =>
      this.save({ ...sender, ...written }, uuid, () => this.deps.senders.update(uuid, written));
    return present(await this.admin.edit(caller, sender, changes, write));
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const sender = await this.visible(caller, uuid);
    await this.admin.remove(caller, sender, () => this.deps.senders.remove(uuid));
  }

  private async visible(caller: Caller, uuid: string): Promise<Hl7SenderRow> {
    return requireAdministered(caller, await this.deps.senders.find(uuid), 'hl7_sender');
  }

  /**
   * Writes a sender whose identity (address, facility, application) no other sender holds, in any
   * account: one sender writes to one account. Two writes racing for one identity meet the
   * unique constraint; the loser gets the same answer as if it had come second.
   */
  private async save(row: Hl7SenderRow, self: string | undefined, write: () => Promise<void>): Promise<void> {
    const taken = async () => {
      const holder = await this.deps.senders.findIdentity(row.host, row.facility_key, row.application_key);
      return holder !== undefined && holder.uuid !== self;
    };
    const refuse = () => invalidField('facility', 'this address and facility are already registered');
    if (await taken()) throw refuse();
    try {
      await write();
    } catch (error) {
      if (await taken()) throw refuse();
      throw error;
    }
  }
}

/** Trims and checks the fields given; answers them cleaned ('' application: any, stored as null). */
function validate(fields: Hl7SenderFields) {
  const out: { name?: string; host?: string; facility?: string; application?: string | null } = {};
  if (fields.host !== undefined) {
    const host = normalIpAddress(fields.host);
    if (!host) throw invalidField('host', 'an IPv4 or IPv6 address');
    out.host = host;
  }
  if (fields.facility !== undefined) out.facility = hl7Id('facility', fields.facility, true)!;
  if (fields.application !== undefined) out.application = hl7Id('application', fields.application, false);
  if (fields.name !== undefined) {
    const name = fields.name.trim();
    if (name.length > HL7_SENDER_NAME_MAX_LENGTH)
      throw invalidField('name', `at most ${HL7_SENDER_NAME_MAX_LENGTH} characters`);
    out.name = name;
  }
  return out;
}

function hl7Id(field: string, raw: string, required: boolean): string | null {
  const value = raw.trim();
  if (!value) {
    if (required) throw invalidField(field, 'is required');
    return null;
  }
  if (value.length > HL7_SENDER_ID_MAX_LENGTH || !HL7_ID.test(value) || SEPARATORS.test(value))
    throw invalidField(field, `1 to ${HL7_SENDER_ID_MAX_LENGTH} printable characters without | ^ ~ \\ &`);
  return value;
}

function auditView(row: Hl7SenderRow) {
  return { name: row.name, host: row.host, facility: row.facility, application: row.application };
}

function present(row: Hl7SenderRow): Hl7Sender {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    name: row.name,
    host: row.host,
    facility: row.facility,
    application: row.application,
    created: Number(row.created),
  };
}
