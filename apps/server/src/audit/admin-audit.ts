import type { AuditAction } from '@imaging-inbox/contract';
import type { Caller } from '../policies/index.js';
import type { AuditService } from './audit.service.js';

/** An object an account administers: its id and the account it belongs to. */
export interface Administered {
  uuid: string;
  account_id: string;
}

type Who = Pick<Caller, 'user' | 'ip'>;

/**
 * The add, edit and remove steps every administered object follows (a destination, a DICOM node, an
 * HL7 sender, a routing rule, a webhook), each leaving one audit event of `objectType` that names
 * who, which account and the object's `view` before and after. The view is what the audit log may
 * show of the object (never a secret), so each kind chooses it once.
 */
export class AdminAudit<Row extends Administered> {
  constructor(
    private readonly audit: AuditService,
    readonly objectType: string,
    private readonly view: (row: Row) => object,
  ) {}

  /** One event on the object: the steps below, or another action (an echo, a test call). */
  record(caller: Who, row: Administered, action: AuditAction, detail: Record<string, unknown> | null) {
    return this.audit.recordAdministration(caller, row.account_id, action, this.objectType, row.uuid, detail);
  }

  /** Writes a new object, then records it (with `extra`, what the view cannot read off the row). */
  async add(caller: Who, row: Row, insert: () => Promise<unknown>, extra?: Record<string, unknown>) {
    await insert();
    await this.record(caller, row, 'CREATE', { after: { ...this.view(row), ...extra } });
  }

  /**
   * Writes the fields given (with `stamp`, such as the time updated) and records the object before
   * and after; given no field, writes and records nothing. Answers the object as it now is.
   */
  async edit<Changes extends Partial<Row>>(
    caller: Who,
    row: Row,
    changes: Changes,
    write: (changes: Changes) => Promise<unknown>,
    stamp?: () => Partial<Row>,
  ): Promise<Row> {
    if (!Object.keys(changes).length) return row;
    const written = { ...changes, ...stamp?.() };
    const after: Row = { ...row, ...written };
    await write(written);
    await this.record(caller, row, 'EDIT', { before: this.view(row), after: this.view(after) });
    return after;
  }

  /** Removes the object, then records what it was. */
  async remove(caller: Who, row: Row, remove: () => Promise<unknown>) {
    await remove();
    await this.record(caller, row, 'DELETE', { before: this.view(row) });
  }
}

/** The audit steps of one kind of administered object, named as its audit events name it. */
export function auditAdmin<Row extends Administered>(
  audit: AuditService,
  objectType: string,
  view: (row: Row) => object,
): AdminAudit<Row> {
  return new AdminAudit(audit, objectType, view);
}
