import { lookup } from 'node:dns/promises';
import net from 'node:net';
import {
  DESTINATION_ADDRESS_MAX_LENGTH,
  DESTINATION_ECHO_INTERVAL_MAX,
  DESTINATION_NAME_MAX_LENGTH,
  isAeTitle,
} from '@imaging-inbox/contract';
import type { Destination, EchoResult } from '@imaging-inbox/contract';
import { invalidField, missingFields } from '../domain/errors.js';
import type { Caller } from '../policies/index.js';
import { requireDestination, requireDestinationAccount } from '../policies/index.js';
import type { DestinationRow, DestinationsRepository } from '../repositories/destinations.repository.js';
import type { DicomNodesRepository } from '../repositories/dicom-nodes.repository.js';
import type { AuditService } from './audit.service.js';
import { newUuid } from './tokens.js';

/** Where a destination's DICOM port is. */
export interface DicomPeer {
  aeTitle: string;
  host: string;
  port: number;
}

/** A C-ECHO to a peer: resolves once it answered success, rejects with the reason otherwise. */
export type EchoPeer = (peer: DicomPeer) => Promise<void>;

/** The fields of destination/add and destination/set, as given (strings; undefined: not given). */
export interface DestinationFields {
  name?: string | undefined;
  aetitle?: string | undefined;
  address?: string | undefined;
  port?: string | undefined;
  can_search?: string | undefined;
  can_search_mwl?: string | undefined;
  can_push?: string | undefined;
  c_echo_interval?: string | undefined;
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
}

interface Deps {
  destinations: DestinationsRepository;
  nodes: DicomNodesRepository;
  audit: AuditService;
  echo: EchoPeer;
  /** Our own AE title: a destination cannot be called by it. */
  ourAeTitle: string;
  /** Host name → IP address (dns.lookup by default). */
  resolve?: (host: string) => Promise<string>;
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

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async list(caller: Caller, accountId: string, uuids?: string[]): Promise<Destination[]> {
    requireDestinationAccount(caller, accountId, 'list');
    return (await this.deps.destinations.listOfAccount(accountId, uuids)).map(present);
  }

  async get(caller: Caller, uuid: string): Promise<Destination> {
    return present(requireDestination(caller, await this.deps.destinations.find(uuid), 'list'));
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
    const valid = await this.validate(fields, undefined);
    const uuid = newUuid();
    const now = this.now();
    const row = {
      uuid,
      account_id: accountId,
      name: valid.name!,
      aetitle: valid.aetitle!,
      address: valid.address!,
      port: valid.port!,
      can_search: valid.can_search ?? 0,
      can_search_mwl: valid.can_search_mwl ?? 0,
      can_push: valid.can_push ?? 0,
      c_echo_interval: valid.c_echo_interval ?? null,
      last_echo_ok: null,
      last_echo_ms: null,
      last_echo_reason: null,
      last_echo_at: null,
      created: now,
      updated: now,
    };
    await this.deps.destinations.insert(row, {
      uuid: newUuid(),
      account_id: accountId,
      ae_title: row.aetitle,
      host: valid.senderHost!,
      group_uuid: null,
      name: row.name,
      created: now,
      destination_id: uuid,
    });
    await this.audit(caller, accountId, 'CREATE', uuid, { after: auditView(row) });
    return present((await this.deps.destinations.find(uuid))!);
  }

  async set(caller: Caller, uuid: string, fields: DestinationFields): Promise<Destination> {
    const row = await this.managed(caller, uuid);
    const valid = await this.validate(fields, uuid);
    const { senderHost, ...changes } = valid;
    if (Object.keys(changes).length) {
      const node = await this.deps.nodes.findOfDestination(uuid);
      const nodeChanges = {
        ...(changes.aetitle !== undefined ? { ae_title: changes.aetitle } : {}),
        ...(senderHost !== undefined ? { host: senderHost } : {}),
      };
      await this.deps.destinations.update(
        uuid,
        { ...changes, updated: this.now() },
        node ? { uuid: node.uuid, changes: nodeChanges } : undefined,
      );
      await this.audit(caller, row.account_id, 'EDIT', uuid, {
        before: auditView(row),
        after: auditView({ ...row, ...changes }),
      });
    }
    return present((await this.deps.destinations.find(uuid))!);
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = await this.managed(caller, uuid);
    await this.deps.destinations.remove(uuid);
    await this.audit(caller, row.account_id, 'DELETE', uuid, { before: auditView(row) });
  }

  /** A C-ECHO now; its outcome is kept as the destination's last echo and answered. */
  async echo(caller: Caller, uuid: string): Promise<EchoResult> {
    const row = await this.managed(caller, uuid);
    const result = await this.echoRow(row);
    await this.audit(caller, row.account_id, 'ECHO', uuid, { ok: result.ok, reason: result.reason });
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
      await this.deps.echo({ aeTitle: row.aetitle, host: row.address, port: row.port });
      result = { ok: true, ms: Math.max(1, Math.round(performance.now() - started)), reason: null, at: 0 };
    } catch (error) {
      result = { ok: false, ms: null, reason: error instanceof Error ? error.message : String(error), at: 0 };
    }
    result.at = this.now();
    await this.deps.destinations.recordEcho(row.uuid, result);
    return result;
  }

  private async managed(caller: Caller, uuid: string): Promise<DestinationRow> {
    return requireDestination(caller, await this.deps.destinations.find(uuid), 'manage');
  }

  /** Trims and checks the fields given; answers them cleaned. `self`: the destination being edited. */
  private async validate(fields: DestinationFields, self: string | undefined): Promise<Cleaned> {
    const out: Cleaned = {};
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
      if (ae === this.deps.ourAeTitle) throw invalidField('aetitle', 'is the AE title of this server');
      // Its PACS will call us by this AE title, which must name one sender only.
      const holder = await this.deps.nodes.findAnyByAeTitle(ae);
      if (holder && (self === undefined || holder.destination_id !== self)) {
        throw invalidField('aetitle', 'is already registered as a DICOM sender');
      }
      out.aetitle = ae;
    }
    if (fields.address !== undefined) {
      const address = fields.address.trim();
      if (!isAddress(address)) throw invalidField('address', 'an IP address or a host name');
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
    for (const name of ['can_search', 'can_search_mwl', 'can_push'] as const) {
      const raw = fields[name]?.trim();
      if (raw === undefined || raw === '') continue;
      if (raw === '1' || raw === 'true') out[name] = 1;
      else if (raw === '0' || raw === 'false') out[name] = 0;
      else throw invalidField(name, 'must be 0 or 1');
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
    return out;
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

  private audit(
    caller: Caller,
    accountId: string,
    action: string,
    uuid: string,
    detail: Record<string, unknown>,
  ) {
    return this.deps.audit.recordAdministration(caller, accountId, action, 'destination', uuid, detail);
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

function auditView(row: { name: string; aetitle: string; address: string; port: number }) {
  return { name: row.name, aetitle: row.aetitle, address: row.address, port: Number(row.port) };
}

export function present(row: DestinationRow): Destination {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
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
    created: Number(row.created),
    updated: Number(row.updated),
  };
}
