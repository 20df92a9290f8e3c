import { isAeTitle } from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import type { CallingAeTitlesRepository } from './calling-ae-titles.repository.js';
import { aeKey } from './calling-ae-titles.repository.js';

/** Who presents an AE title of ours: an account, or one of its destinations with a title of its own. */
export interface AeTitleOwner {
  accountId: string;
  destinationId: string | null;
  title: string;
}

const AE_MAX = 16;

/**
 * The AE title each account presents to its PACS (decision 0054). Every association we open toward
 * a destination calls as the destination's own title if it has one, else its account's; a C-MOVE
 * asks the PACS to deliver to that same title, and our listener routes the delivery by it. An
 * account without a title gets one on first use, derived deterministically: the oldest account
 * (then by name) keeps the server's own AE title (DICOM_AET, so existing PACS configurations keep
 * working), every other account its name in upper case with `_` for anything else (PARTNER_CLINIC),
 * cut to 16 characters, with `_2`, `_3`… when that is taken. Titles are unique server-wide by their
 * trimmed upper-case form, and never one of our listener's local AE titles.
 */
export class CallingAeTitles {
  constructor(
    private readonly deps: {
      titles: CallingAeTitlesRepository;
      /** The listener's own AE title (DICOM_AET). */
      serverAe: string;
      now?: () => number;
    },
  ) {}

  /** The account's AE title, given its default first if it has none. */
  async ofAccount(accountId: string): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = await this.deps.titles.ofAccount(accountId);
      if (row) return row.ae_title;
      const title = await this.defaultFor(accountId);
      if (await this.deps.titles.assign(accountId, null, title, this.now())) return title;
    }
    throw new Error(`no free calling AE title for account ${accountId}`);
  }

  /** The title a destination's associations call as: its own, else its account's. */
  async ofDestination(destination: { uuid: string; account_id: string }): Promise<string> {
    return (
      (await this.deps.titles.ofDestination(destination.uuid))?.ae_title ??
      this.ofAccount(destination.account_id)
    );
  }

  /** A destination's own title, or null when it calls as its account. */
  async ownOf(destinationId: string): Promise<string | null> {
    return (await this.deps.titles.ofDestination(destinationId))?.ae_title ?? null;
  }

  /**
   * Who presents this called AE title, when a PACS delivers to it. The server's own title, while no
   * account holds it yet, is the first account's (it takes it then).
   */
  async owner(calledAe: string): Promise<AeTitleOwner | undefined> {
    let row = await this.deps.titles.byTitle(calledAe);
    if (!row && aeKey(calledAe) === aeKey(this.deps.serverAe)) {
      const first = await this.deps.titles.firstAccountId();
      if (first) await this.ofAccount(first);
      row = await this.deps.titles.byTitle(calledAe);
    }
    return row
      ? { accountId: row.account_id, destinationId: row.destination_id, title: row.ae_title }
      : undefined;
  }

  /** Whether this is one of our AE titles (the server's, an account's or a destination's), any case. */
  async isOurs(title: string): Promise<boolean> {
    return (
      aeKey(title) === aeKey(this.deps.serverAe) || (await this.deps.titles.byTitle(title)) !== undefined
    );
  }

  /** account/set `settings.calling_aet`: the account's title (INVALID_FIELD when malformed or taken). */
  async setForAccount(accountId: string, wanted: string, field: string): Promise<string> {
    const title = wanted.trim();
    await this.check(title, field, accountId, null);
    if (!(await this.deps.titles.assign(accountId, null, title, this.now()))) throw taken(field);
    return title;
  }

  /** A destination's own title; '' forgets it (the destination calls as its account). */
  async setForDestination(
    accountId: string,
    destinationId: string,
    wanted: string,
    field: string,
  ): Promise<void> {
    const title = wanted.trim();
    if (title === '') return this.deps.titles.forgetDestination(destinationId);
    await this.check(title, field, accountId, destinationId);
    if (!(await this.deps.titles.assign(accountId, destinationId, title, this.now()))) throw taken(field);
  }

  /** Refuses a title that is malformed, another's, or one only the first account may hold. */
  async check(title: string, field: string, accountId: string, destinationId: string | null): Promise<void> {
    if (!isAeTitle(title)) throw invalidField(field, '1 to 16 characters, printable ASCII without backslash');
    const key = aeKey(title);
    const holder = await this.deps.titles.byTitle(title);
    const mine = holder && holder.account_id === accountId && holder.destination_id === destinationId;
    if (holder && !mine) throw taken(field);
    if (key === aeKey(this.deps.serverAe) && accountId !== (await this.deps.titles.firstAccountId()))
      throw taken(field);
    if (await this.deps.titles.isLocalAe(key)) throw taken(field);
  }

  private async defaultFor(accountId: string): Promise<string> {
    if (accountId === (await this.deps.titles.firstAccountId())) {
      const server = this.deps.serverAe.trim();
      if (!(await this.deps.titles.byTitle(server))) return server;
    }
    const base =
      ((await this.deps.titles.accountName(accountId)) ?? '')
        .normalize('NFKD')
        // Accents dropped, not turned into separators: Éloi is ELOI.
        .replace(/[\u0300-\u036f]/g, '')
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, AE_MAX)
        .replace(/_+$/, '') || 'ACCOUNT';
    const candidates = [base];
    for (let n = 2; n < 100; n++) {
      const suffix = `_${n}`;
      candidates.push(base.slice(0, AE_MAX - suffix.length) + suffix);
    }
    const taken = await this.deps.titles.taken(candidates);
    for (const candidate of candidates) {
      if (taken.has(candidate) || candidate === aeKey(this.deps.serverAe)) continue;
      if (await this.deps.titles.isLocalAe(candidate)) continue;
      return candidate;
    }
    throw new Error(`no free calling AE title for account ${accountId}`);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

function taken(field: string) {
  return invalidField(field, 'is already the AE title of another account or destination');
}
