import type { Kysely, Migration } from 'kysely';

/**
 * One registry of every share code, whoever holds it (an account, a group, a person's personal
 * namespace): its primary key is the normalised code (trimmed, upper case), so two owners can
 * never hold the same code in any case, on either database, even when they write at once.
 * namespaces.share_code and accounts.share_code keep the code as shown; the registry decides who
 * owns it. Existing codes are registered accounts first, then groups, then personal namespaces;
 * a later holder of a code already registered loses it (a person who claimed their hospital's
 * code keeps no code at all).
 */
/** As repositories/share-codes.repository.ts normalises a code (kept here: a migration never changes). */
const shareCodeKey = (code: string) => code.trim().toUpperCase();

export const shareCodeRegistry: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('share_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      // null for the account's own code; else the namespace the code sends to.
      .addColumn('namespace_id', 'text', (c) => c.unique())
      .execute();

    const d = db as Kysely<{
      accounts: { uuid: string; share_code: string | null; created: number };
      namespaces: { id: string; account_id: string; share_code: string | null; owner_user_id: string | null };
      share_codes: { code: string; account_id: string; namespace_id: string | null };
    }>;
    const taken = new Set<string>();
    const accounts = await d
      .selectFrom('accounts')
      .select(['uuid', 'share_code'])
      .where('share_code', 'is not', null)
      .orderBy('created')
      .orderBy('uuid')
      .execute();
    for (const account of accounts) {
      const key = shareCodeKey(account.share_code ?? '');
      if (!key || taken.has(key)) continue;
      taken.add(key);
      await d
        .insertInto('share_codes')
        .values({ code: key, account_id: account.uuid, namespace_id: null })
        .execute();
    }
    const namespaces = await d
      .selectFrom('namespaces')
      .select(['id', 'account_id', 'share_code', 'owner_user_id'])
      .where('share_code', 'is not', null)
      .execute();
    // Groups before personal namespaces: a group's code is the organisation's.
    namespaces.sort((a, b) => Number(a.owner_user_id !== null) - Number(b.owner_user_id !== null));
    for (const ns of namespaces) {
      const key = shareCodeKey(ns.share_code ?? '');
      if (!key || taken.has(key)) {
        await d.updateTable('namespaces').set({ share_code: null }).where('id', '=', ns.id).execute();
        continue;
      }
      taken.add(key);
      await d
        .insertInto('share_codes')
        .values({ code: key, account_id: ns.account_id, namespace_id: ns.id })
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('share_codes').execute();
  },
};
