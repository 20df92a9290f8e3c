import { lookup } from 'node:dns/promises';
import net from 'node:net';
import {
  DESTINATION_ADDRESS_MAX_LENGTH,
  DESTINATION_ECHO_INTERVAL_MAX,
  DESTINATION_NAME_MAX_LENGTH,
  isAeTitle,
  STORAGE_COMMITMENT_TIMEOUT_MAX,
  STORAGE_COMMITMENT_TIMEOUT_MIN,
} from '@imaging-inbox/contract';
import type { Destination, EchoResult } from '@imaging-inbox/contract';
import { invalidField, missingFields } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import {
  mayOnDestinations,
  maySetSharedTarget,
  requireDestination,
  requireDestinationAccount,
} from './destinations.js';
import { NO_DICOM_ANSWER } from './pacs-client.js';
import type { PacsPeer } from './pacs-client.js';
import type { CallingAeTitles } from './calling-ae-titles.service.js';
import type { DestinationRow, DestinationsRepository } from './destinations.repository.js';
import type { DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { auditAdmin, type AdminAudit, type Administered } from '../../audit/admin-audit.js';
import { newUuid } from '../../security/tokens.js';
import { cleanTls, peerTls, tlsAudit, tlsView } from './destination-tls.js';
import type { TlsFields } from './destination-tls.js';
import type { PushProfiles } from './push-profiles.js';

/** Where a destination's DICOM port is. */
export interface DicomPeer {
  aeTitle: string;
  host: string;
  port: number;
}

/** A C-ECHO to a peer: resolves once it answered success, rejects otherwise. */
export type EchoPeer = (peer: PacsPeer) => Promise<void>;

/** The fields of destination/add and destination/set, as given (strings; undefined: not given). */
export interface DestinationFields extends TlsFields {
  name?: string | undefined;
  aetitle?: string | undefined;
  address?: string | undefined;
  port?: string | undefined;
  can_search?: string | undefined;
  can_search_mwl?: string | undefined;
  /** Ambra's SDK name for can_search_mwl. */
  can_mwl_search?: string | undefined;
  can_push?: string | undefined;
  c_echo_interval?: string | undefined;
  calling_aet?: string | undefined;
  shared_target?: string | undefined;
  storage_commitment?: string | undefined;
  storage_commitment_timeout?: string | undefined;
  anonymization_id?: string | undefined;
}

interface Cleaned {
  name?: string;
  aetitle?: string;
  address?: string;
  /** The IP the address resolved to: the host its PACS's deliveries must come from. */
  senderHost?: string;
  port?: number;
  can_search?: number;
  can_search_mwl?: number;
  can_push?: number;
  c_echo_interval?: number | null;
  shared_target?: number;
  storage_commitment?: number;
  storage_commitment_timeout?: number | null;
  anonymization_id?: string | null;
}

interface Deps {
  destinations: DestinationsRepository;
  nodes: DicomNodesRepository;
  audit: AuditService;
  echo: EchoPeer;
  /** The AE titles we call as (ours cannot be a destination's). */
  callingAes: CallingAeTitles;
  /** Why a destination may not be aimed at this host (DicomPeerGuard: internal addresses), or null. */
  addressProblem?: (host: string) => Promise<string | null>;
  /** Host name → IP address (dns.lookup by default). */
  resolve?: (host: string) => Promise<string>;
  /** The server log: why an echo failed (the account sees only NO_DICOM_ANSWER). */
  log?: (line: string) => void;
  /** The account's de-identification profiles (privacy's Deidentifier), for `anonymization_id`. */
  profiles?: PushProfiles | undefined;
  now?: () => number;
}

const REQUIRED = ['name', 'aetitle', 'address', 'port'] as const;

/**
 * The PACS-like destinations of an account (SPEC.md sections 3 and 7). Its admins manage them;
 * members who may search or push with one see them. Each destination registers its AE title and
 * host as an allowed DICOM sender without a group, so its PACS can deliver what we C-MOVE. What the
 * caller may not see answers NOT_FOUND, as a made-up uuid does.
 */
export class DestinationService {
  private readonly now: () => number;

  private readonly admin: AdminAudit<AuditedDestination>;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
    this.admin = auditAdmin(deps.audit, 'destination', auditView);
  }

  async list(caller: Caller, accountId: string, uuids?: string[]): Promise<Destination[]> {
    requireDestinationAccount(caller, accountId, 'list');
    const rows = await this.deps.destinations.listOfAccount(accountId, uuids);
    const manager = mayOnDestinations(caller, accountId, 'manage');
    return Promise.all(rows.map((row) => this.present(row, manager)));
  }

  async get(caller: Caller, uuid: string): Promise<Destination> {
    const row = requireDestination(caller, await this.deps.destinations.find(uuid), 'list');
    return this.present(row, mayOnDestinations(caller, row.account_id, 'manage'));
  }

  /** A destination the caller may use (search or push with), or NOT_FOUND. */
  async usable(caller: Caller, uuid: string): Promise<DestinationRow> {
    return requireDestination(caller, await this.deps.destinations.find(uuid), 'list');
  }

  /** A destination by uuid, for work done on an admin's behalf (a routing rule's push): no caller to ask. */
  find(uuid: string): Promise<DestinationRow | undefined> {
    return this.deps.destinations.find(uuid);
  }

  async add(caller: Caller, accountId: string, fields: DestinationFields): Promise<Destination> {
    requireDestinationAccount(caller, accountId, 'manage');
    const missing = REQUIRED.filter((f) => !fields[f]?.trim());
    if (missing.length) throw missingFields(missing);
    const valid = await this.validate(caller, fields, accountId);
    const tls = cleanTls(fields);
    const uuid = newUuid();
    const now = this.now();
    const row = {
      uuid,
      account_id: accountId,
      ...tls,
      name: valid.name!,
      aetitle: valid.aetitle!,
      address: valid.address!,
      port: valid.port!,
      can_search: valid.can_search ?? 0,
      can_search_mwl: valid.can_search_mwl ?? 0,
      can_push: valid.can_push ?? 0,
      c_echo_interval: valid.c_echo_interval ?? null,
      shared_target: valid.shared_target ?? 0,
      storage_commitment: valid.storage_commitment ?? 0,
      storage_commitment_timeout: valid.storage_commitment_timeout ?? null,
      anonymization_id: valid.anonymization_id ?? null,
      last_echo_ok: null,
      last_echo_ms: null,
      last_echo_reason: null,
      last_echo_at: null,
      created: now,
      updated: now,
    };
    const target = { ...row, senderHost: valid.senderHost! };
    const shares = await this.sharedSender(caller, accountId, undefined, target, valid.shared_target);
    if (fields.calling_aet?.trim())
      await this.deps.callingAes.check(fields.calling_aet.trim(), 'calling_aet', accountId, uuid);
    const insert = async () => {
      // A destination sharing another's PACS target is delivered to through that one's sender.
      if (shares) await this.deps.destinations.insertLocal(row);
      else await this.deps.destinations.insert(row, this.senderOf(row, valid.senderHost!, now));
      if (fields.calling_aet?.trim()) {
        await this.deps.callingAes.setForDestination(accountId, uuid, fields.calling_aet, 'calling_aet');
      }
    };
    await this.admin.add(caller, row, insert, { calling_aet: fields.calling_aet?.trim() || null });
    return this.present((await this.deps.destinations.find(uuid))!);
  }

  async set(caller: Caller, uuid: string, fields: DestinationFields): Promise<Destination> {
    const row = await this.managed(caller, uuid);
    const valid = { ...(await this.validate(caller, fields, row.account_id)), ...cleanTls(fields, row) };
    const { senderHost, ...changes } = valid;
    const callingAet = fields.calling_aet?.trim();
    const before = await this.deps.callingAes.ownOf(uuid);
    if (callingAet) await this.deps.callingAes.check(callingAet, 'calling_aet', row.account_id, uuid);
    const retargeted =
      changes.aetitle !== undefined || changes.address !== undefined || changes.port !== undefined;
    if (Object.keys(changes).length) {
      let node: Parameters<DestinationsRepository['update']>[2];
      if (retargeted || changes.shared_target !== undefined) {
        const after = { ...row, ...changes, port: Number(changes.port ?? row.port) };
        const host = senderHost ?? (await this.senderHost(after.address));
        const shares = await this.sharedSender(
          caller,
          row.account_id,
          uuid,
          { ...after, senderHost: host },
          changes.shared_target,
        );
        const own = await this.deps.nodes.findOfDestination(uuid);
        if (shares) node = own ? { drop: true } : undefined;
        else if (own) node = { uuid: own.uuid, changes: { ae_title: after.aetitle, host } };
        else if (!(await this.isLocalTarget(after.aetitle)))
          node = { insert: this.senderOf({ ...after, uuid }, host, this.now()) };
      }
      await this.deps.destinations.update(uuid, { ...changes, updated: this.now() }, node);
    }
    if (callingAet !== undefined) {
      await this.deps.callingAes.setForDestination(row.account_id, uuid, callingAet, 'calling_aet');
    }
    const after = await this.deps.callingAes.ownOf(uuid);
    if (Object.keys(changes).length || after !== before) {
      await this.admin.record(caller, row, 'EDIT', {
        before: { ...auditView(row), ...tlsAudit(row), calling_aet: before },
        after: {
          ...auditView({ ...row, ...changes }),
          ...tlsAudit({ ...row, ...changes }),
          calling_aet: after,
        },
      });
    }
    return this.present((await this.deps.destinations.find(uuid))!);
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = await this.managed(caller, uuid);
    const own = await this.deps.nodes.findOfDestination(uuid);
    // Another destination sharing this PACS target takes over its sender, so its deliveries still arrive.
    const heir = own
      ? (await this.deps.destinations.atTarget({ ...row, port: Number(row.port) }, uuid))[0]
      : undefined;
    const heirSender = heir && own ? this.senderOf(heir, own.host, this.now()) : undefined;
    await this.admin.remove(caller, row, () => this.deps.destinations.remove(uuid, heirSender));
  }

  /** A C-ECHO now; its outcome is kept as the destination's last echo and answered. */
  async echo(caller: Caller, uuid: string): Promise<EchoResult> {
    const row = await this.managed(caller, uuid);
    const result = await this.echoRow(row);
    await this.admin.record(caller, row, 'ECHO', { ok: result.ok, reason: result.reason });
    return result;
  }

  /** The automatic C-ECHO: every destination whose c_echo_interval has passed since its last echo. */
  async echoDue(): Promise<void> {
    const due = await this.deps.destinations.dueForEcho(this.now());
    await Promise.all(due.map((row) => this.echoRow(row)));
  }

  /** Echoes a destination and records the outcome (also for the automatic echo). */
  async echoRow(row: DestinationRow): Promise<EchoResult> {
    const started = performance.now();
    let result: EchoResult;
    try {
      const callingAe = await this.deps.callingAes.ofDestination(row);
      const peer = { aeTitle: row.aetitle, host: row.address, port: Number(row.port), callingAe };
      await this.deps.echo({ ...peer, tls: peerTls(row) });
      result = { ok: true, ms: Math.max(1, Math.round(performance.now() - started)), reason: null, at: 0 };
    } catch (error) {
      // One answer whatever happened (closed, open to something else, silent, refused): no port scan.
      this.deps.log?.(
        `C-ECHO of destination ${row.uuid} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      result = { ok: false, ms: null, reason: NO_DICOM_ANSWER, at: 0 };
    }
    result.at = this.now();
    await this.deps.destinations.recordEcho(row.uuid, result);
    return result;
  }

  private async managed(caller: Caller, uuid: string): Promise<DestinationRow> {
    return requireDestination(caller, await this.deps.destinations.find(uuid), 'manage');
  }

  /** Trims and checks the fields given; answers them cleaned. */
  private async validate(caller: Caller, fields: DestinationFields, accountId: string): Promise<Cleaned> {
    const out: Cleaned = {};
    if (fields.anonymization_id !== undefined) {
      const id = fields.anonymization_id.trim();
      if (!id) out.anonymization_id = null;
      else {
        // Only a profile of the destination's own account: another account's reads as made up.
        if (!this.deps.profiles) throw invalidField('anonymization_id', 'de-identification is not available');
        out.anonymization_id = (
          await this.deps.profiles.bind(accountId, id, 'anonymization_id')
        ).profile.uuid;
      }
    }
    if (fields.name !== undefined) {
      const name = fields.name.trim();
      if (!name) throw invalidField('name', 'is required');
      if (name.length > DESTINATION_NAME_MAX_LENGTH) {
        throw invalidField('name', `at most ${DESTINATION_NAME_MAX_LENGTH} characters`);
      }
      out.name = name;
    }
    if (fields.aetitle !== undefined) {
      const ae = fields.aetitle.trim();
      if (!isAeTitle(ae))
        throw invalidField('aetitle', '1 to 16 characters, printable ASCII without backslash');
      if (await this.deps.callingAes.isOurs(ae))
        throw invalidField('aetitle', 'is an AE title of this server');
      out.aetitle = ae;
    }
    if (fields.address !== undefined) {
      const address = fields.address.trim();
      if (!isAddress(address)) throw invalidField('address', 'an IP address or a host name');
      const problem = await this.deps.addressProblem?.(address);
      if (problem) throw invalidField('address', problem);
      out.address = address;
      out.senderHost = await this.senderHost(address);
    }
    if (fields.port !== undefined) {
      const port = Number(fields.port.trim());
      if (!/^\d+$/.test(fields.port.trim()) || port < 1 || port > 65535) {
        throw invalidField('port', 'must be an integer from 1 to 65535');
      }
      out.port = port;
    }
    for (const name of ['can_search', 'can_search_mwl', 'can_push', 'storage_commitment'] as const) {
      const raw = fields[name]?.trim();
      if (raw === undefined || raw === '') continue;
      out[name] = flag(raw, name);
    }
    // Ambra's SDK says can_mwl_search for can_search_mwl: either is taken, both must agree.
    const sdkMwl = fields.can_mwl_search?.trim();
    if (sdkMwl !== undefined && sdkMwl !== '') {
      const value = flag(sdkMwl, 'can_mwl_search');
      if (out.can_search_mwl !== undefined && out.can_search_mwl !== value) {
        throw invalidField('can_mwl_search', 'differs from can_search_mwl');
      }
      out.can_search_mwl = value;
    }
    if (fields.c_echo_interval !== undefined) {
      const raw = fields.c_echo_interval.trim();
      if (raw === '' || raw === '0') out.c_echo_interval = null;
      else {
        const seconds = Number(raw);
        if (!/^\d+$/.test(raw) || seconds < 10 || seconds > DESTINATION_ECHO_INTERVAL_MAX) {
          throw invalidField(
            'c_echo_interval',
            `seconds from 10 to ${DESTINATION_ECHO_INTERVAL_MAX}, or 0 for never`,
          );
        }
        out.c_echo_interval = seconds;
      }
    }
    if (fields.storage_commitment_timeout !== undefined) {
      const raw = fields.storage_commitment_timeout.trim();
      if (raw === '' || raw === '0') out.storage_commitment_timeout = null;
      else {
        const seconds = Number(raw);
        if (
          !/^\d+$/.test(raw) ||
          seconds < STORAGE_COMMITMENT_TIMEOUT_MIN ||
          seconds > STORAGE_COMMITMENT_TIMEOUT_MAX
        ) {
          throw invalidField(
            'storage_commitment_timeout',
            `seconds from ${STORAGE_COMMITMENT_TIMEOUT_MIN} to ${STORAGE_COMMITMENT_TIMEOUT_MAX}, or 0 for the default`,
          );
        }
        out.storage_commitment_timeout = seconds;
      }
    }
    const shared = fields.shared_target?.trim();
    if (shared !== undefined && shared !== '') {
      if (shared !== '0' && shared !== '1') throw invalidField('shared_target', 'must be 0 or 1');
      if (!maySetSharedTarget(caller))
        throw invalidField('shared_target', 'only a system administrator may set it');
      out.shared_target = Number(shared);
    }
    return out;
  }

  /**
   * Whether this destination's PACS target (AE title in any case, port, address) is delivered to
   * through another destination's sender, because a system administrator shared that target.
   * Throws when the target, or a sender with its AE title, is another's and not shared: a PACS
   * belongs to one account (decision 0054).
   */
  private async sharedSender(
    caller: Caller,
    accountId: string,
    self: string | undefined,
    target: { aetitle: string; address: string; port: number; senderHost: string },
    sharing: number | undefined,
  ): Promise<boolean> {
    const holder = await this.deps.nodes.findAnyByAeKey(target.aetitle);
    if (!holder || (self !== undefined && holder.destination_id === self)) {
      const others = await this.deps.destinations.atTarget(target, self);
      if (others.some((d) => d.account_id !== accountId && !Number(d.shared_target)) && sharing !== 1) {
        throw invalidField('aetitle', 'this PACS (address, port and AE title) belongs to another account');
      }
      return false;
    }
    const owner = holder.destination_id
      ? await this.deps.destinations.find(holder.destination_id)
      : undefined;
    const sameTarget =
      owner !== undefined &&
      Number(owner.port) === target.port &&
      (owner.address.toLowerCase() === target.address.toLowerCase() || holder.host === target.senderHost);
    if (sameTarget && (Number(owner.shared_target) === 1 || (sharing === 1 && maySetSharedTarget(caller))))
      return true;
    throw invalidField(
      'aetitle',
      holder.account_id === accountId
        ? 'is already registered as a DICOM sender'
        : 'this PACS AE title belongs to another account',
    );
  }

  /** A destination aimed at one of our listener's own AE titles (the demo's PACS Archive): no sender. */
  private async isLocalTarget(aetitle: string): Promise<boolean> {
    return (await this.deps.nodes.findLocalAe(aetitle)) !== undefined;
  }

  /** The sender registration that lets the destination's PACS deliver what we C-MOVE. */
  private senderOf(
    row: { uuid: string; account_id: string; aetitle: string; name: string },
    host: string,
    now: number,
  ) {
    return {
      uuid: newUuid(),
      account_id: row.account_id,
      ae_title: row.aetitle,
      host,
      group_uuid: null,
      name: row.name,
      created: now,
      destination_id: row.uuid,
    };
  }

  /** The destination as answered; its certificates only to a `manager` of the account's destinations. */
  private async present(row: DestinationRow, manager = true): Promise<Destination> {
    return { ...present(row, await this.deps.callingAes.ownOf(row.uuid)), ...tlsView(row, manager) };
  }

  /** The IP a destination's deliveries come from: its address, resolved when it is a host name. */
  private async senderHost(address: string): Promise<string> {
    if (net.isIP(address)) return address;
    try {
      return await (this.deps.resolve ?? defaultResolve)(address);
    } catch {
      throw invalidField('address', 'does not resolve to an IP address');
    }
  }
}

async function defaultResolve(host: string): Promise<string> {
  return (await lookup(host)).address;
}

/** An IP address, or a host name of letters, digits, hyphens and dots (RFC 1123). */
function isAddress(value: string): boolean {
  if (net.isIP(value)) return true;
  if (value.length > DESTINATION_ADDRESS_MAX_LENGTH) return false;
  return /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(
    value,
  );
}

/** What the audit log shows of a destination. */
type AuditedDestination = Administered & {
  name: string;
  aetitle: string;
  address: string;
  port: number;
  storage_commitment?: number;
  storage_commitment_timeout?: number | null;
  anonymization_id?: string | null;
};

function auditView(row: AuditedDestination) {
  return {
    name: row.name,
    aetitle: row.aetitle,
    address: row.address,
    port: Number(row.port),
    ...(row.anonymization_id ? { anonymization_id: row.anonymization_id } : {}),
    ...(Number(row.storage_commitment)
      ? { storage_commitment: 1, storage_commitment_timeout: row.storage_commitment_timeout ?? null }
      : {}),
  };
}

export function present(row: DestinationRow, callingAet: string | null = null): Destination {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    ...tlsView(row, false),
    name: row.name,
    aetitle: row.aetitle,
    address: row.address,
    port: Number(row.port),
    can_search: Number(row.can_search) ? 1 : 0,
    can_search_mwl: Number(row.can_search_mwl) ? 1 : 0,
    can_push: Number(row.can_push) ? 1 : 0,
    c_echo_interval: row.c_echo_interval === null ? null : Number(row.c_echo_interval),
    last_echo:
      row.last_echo_at === null
        ? null
        : {
            ok: Number(row.last_echo_ok) === 1,
            ms: row.last_echo_ms === null ? null : Number(row.last_echo_ms),
            reason: row.last_echo_reason,
            at: Number(row.last_echo_at),
          },
    calling_aet: callingAet,
    shared_target: Number(row.shared_target) ? 1 : 0,
    storage_commitment: Number(row.storage_commitment) ? 1 : 0,
    storage_commitment_timeout:
      row.storage_commitment_timeout === null ? null : Number(row.storage_commitment_timeout),
    anonymization_id: row.anonymization_id ?? null,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

/** A 0/1 flag as sent (`true`/`false` too). */
function flag(raw: string, name: string): 0 | 1 {
  if (raw === '1' || raw === 'true') return 1;
  if (raw === '0' || raw === 'false') return 0;
  throw invalidField(name, 'must be 0 or 1');
}
