import net from 'node:net';
import { DICOM_NODE_NAME_MAX_LENGTH, isAeTitle } from '@imaging-inbox/contract';
import type { DicomNode } from '@imaging-inbox/contract';
import { invalidField, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireAccountAdmin, requireAdministered } from '../../policies/index.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { DicomNodeListed, DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { auditAdmin, type AdminAudit, type Administered } from '../../audit/admin-audit.js';
import { newUuid } from '../../security/tokens.js';
import { givenFields } from '../../domain/given-fields.js';

export interface DicomNodeFields {
  ae_title?: string | undefined;
  host?: string | undefined;
  group_id?: string | undefined;
  name?: string | undefined;
  /** Comma-separated group uuids it may query ('' for none). */
  query_group_ids?: string | undefined;
  /** '1' or '0'. */
  may_retrieve?: string | undefined;
  /** Its listening port as a C-MOVE destination ('' for none). */
  port?: string | undefined;
}

interface Deps {
  nodes: DicomNodesRepository;
  accounts: AccountsRepository;
  audit: AuditService;
  /** Our own AE title: a sender cannot call itself by it. */
  ourAeTitle: string;
  now?: () => number;
}

/**
 * The registered DICOM senders of an account, managed by its admins. Everything that is not theirs
 * (another account, its groups, its nodes) answers NOT_FOUND, as a made-up uuid does.
 */
export class DicomNodeService {
  private readonly admin: AdminAudit<AuditedNode>;

  constructor(private readonly deps: Deps) {
    this.admin = auditAdmin(deps.audit, 'dicom_node', auditView);
  }

  async list(caller: Caller, accountId: string): Promise<DicomNode[]> {
    this.assertAdmin(caller, accountId);
    return (await this.deps.nodes.listOfAccount(accountId)).map(present);
  }

  async add(caller: Caller, accountId: string, fields: DicomNodeFields): Promise<DicomNode> {
    this.assertAdmin(caller, accountId);
    for (const field of ['ae_title', 'host', 'group_id'] as const) {
      if (!fields[field]?.trim()) throw invalidField(field, 'is required');
    }
    const valid = await this.validate(accountId, fields, undefined);
    const uuid = newUuid();
    const row = {
      uuid,
      account_id: accountId,
      ae_title: valid.ae_title!,
      host: valid.host!,
      group_uuid: valid.group_id!,
      name: valid.name ?? valid.ae_title!,
      query_groups: valid.query_groups ?? '[]',
      may_retrieve: valid.may_retrieve ?? 0,
      port: valid.port ?? null,
      created: (this.deps.now ?? Date.now)(),
    };
    await this.admin.add(caller, row, () => this.deps.nodes.insert(row));
    return present((await this.deps.nodes.find(uuid))!);
  }

  async set(caller: Caller, uuid: string, fields: DicomNodeFields): Promise<DicomNode> {
    const node = await this.visible(caller, uuid);
    // A destination's sender follows the destination's AE title and address; only its group and
    // name are its own.
    if (node.destination_id !== null) {
      for (const field of ['ae_title', 'host'] as const) {
        if (fields[field] !== undefined)
          throw invalidField(field, "is the destination's: edit the destination");
      }
    }
    const valid = await this.validate(node.account_id, fields, node.uuid);
    const changes = givenFields({
      ae_title: valid.ae_title,
      host: valid.host,
      group_uuid: valid.group_id,
      name: valid.name,
      query_groups: valid.query_groups,
      may_retrieve: valid.may_retrieve,
      port: valid.port,
    });
    await this.admin.edit(caller, node, changes, (written) => this.deps.nodes.update(uuid, written));
    return present((await this.deps.nodes.find(uuid))!);
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const node = await this.visible(caller, uuid);
    if (node.destination_id !== null)
      throw invalidField('uuid', 'belongs to a destination: delete the destination');
    await this.admin.remove(caller, node, () => this.deps.nodes.remove(uuid));
  }

  private assertAdmin(caller: Caller, accountId: string): void {
    requireAccountAdmin(caller, accountId);
  }

  private async visible(caller: Caller, uuid: string): Promise<DicomNodeListed> {
    return requireAdministered(caller, await this.deps.nodes.find(uuid), 'dicom_node');
  }

  /** Trims and checks the fields given; answers them cleaned. `self`: the node being edited. */
  private async validate(accountId: string, fields: DicomNodeFields, self: string | undefined) {
    const out: Omit<DicomNodeFields, 'may_retrieve' | 'port'> & {
      query_groups?: string;
      may_retrieve?: number;
      port?: number | null;
    } = {};
    if (fields.ae_title !== undefined) {
      const ae = fields.ae_title.trim();
      if (!isAeTitle(ae)) {
        throw invalidField('ae_title', '1 to 16 characters, printable ASCII without backslash');
      }
      if (ae === this.deps.ourAeTitle) throw invalidField('ae_title', 'is the AE title of this server');
      // In any case or padding: a PACS compares AE titles case-blind (decision 0054).
      const holder = await this.deps.nodes.findAnyByAeKey(ae);
      if (holder && holder.uuid !== self) throw invalidField('ae_title', 'is already registered');
      out.ae_title = ae;
    }
    if (fields.host !== undefined) {
      const host = fields.host.trim();
      if (host !== '*' && net.isIP(host) === 0) {
        throw invalidField('host', 'an IPv4 or IPv6 address, or * for any');
      }
      out.host = host;
    }
    if (fields.group_id !== undefined) {
      const group = await this.deps.accounts.findGroup(fields.group_id.trim());
      if (!group || group.account_id !== accountId) throw notFound('group');
      if (group.type !== 'CLOUD') throw invalidField('group_id', 'must be a cloud group');
      out.group_id = group.uuid;
    }
    if (fields.name !== undefined) {
      const name = fields.name.trim();
      if (name.length > DICOM_NODE_NAME_MAX_LENGTH) throw invalidField('name', 'at most 100 characters');
      if (name) out.name = name;
    }
    // What it may query and retrieve as a DICOM peer (decision 0061): its own account's groups only.
    if (fields.query_group_ids !== undefined) {
      const ids = [
        ...new Set(
          fields.query_group_ids
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ];
      if (ids.length > 100) throw invalidField('query_group_ids', 'at most 100 groups');
      for (const id of ids) {
        const group = await this.deps.accounts.findGroup(id);
        if (!group || group.account_id !== accountId) throw notFound('group');
      }
      out.query_groups = JSON.stringify(ids);
    }
    if (fields.may_retrieve !== undefined) {
      const flag = fields.may_retrieve.trim();
      if (flag !== '0' && flag !== '1') throw invalidField('may_retrieve', '1 or 0');
      out.may_retrieve = Number(flag);
    }
    if (fields.port !== undefined) {
      const port = fields.port.trim();
      if (port === '') out.port = null;
      else if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
        throw invalidField('port', 'a TCP port from 1 to 65535, or empty');
      else out.port = Number(port);
    }
    return out;
  }
}

/** What the audit log shows of a DICOM node. */
type AuditedNode = Administered & {
  ae_title: string;
  host: string;
  group_uuid: string | null;
  name: string;
  query_groups?: string;
  may_retrieve?: number;
  port?: number | null;
};

function auditView(node: AuditedNode) {
  return {
    ae_title: node.ae_title,
    host: node.host,
    group_id: node.group_uuid,
    name: node.name,
    query_group_ids: queryGroupIds(node.query_groups ?? '[]'),
    may_retrieve: node.may_retrieve ?? 0,
    port: node.port ?? null,
  };
}

/** The group uuids a node's `query_groups` column names. */
function queryGroupIds(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function present(node: DicomNodeListed): DicomNode {
  return {
    uuid: node.uuid,
    account_id: node.account_id,
    name: node.name,
    ae_title: node.ae_title,
    host: node.host,
    group_id: node.group_uuid,
    group_name: node.group_name,
    namespace_id: node.namespace_id,
    destination_id: node.destination_id,
    query_group_ids: queryGroupIds(node.query_groups),
    may_retrieve: Number(node.may_retrieve) === 1 ? 1 : 0,
    port: node.port === null ? null : Number(node.port),
    created: Number(node.created),
  };
}
