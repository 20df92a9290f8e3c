import { firstAccountOf } from './demo-world.js';
import { freePort } from './child-server.js';
import type { Answer, Dialect, TestServer } from './test-server.js';
import { startTestServer } from './test-server.js';

/**
 * What the single sign-on tests (test/api/sso-oidc.test.ts, sso-saml.test.ts) sign into: a server
 * at a public URL chosen before it starts (the identity provider registers its reply URL), the demo
 * admin's session, the demo account, two of its roles and its Emergency group, and the reads the
 * tests make of what a sign-in left behind.
 */
export interface SsoWorld {
  server: TestServer;
  /** The server's public URL: `http://127.0.0.1:<port>`. */
  base: string;
  admin: string;
  demoAccount: string;
  radiologist: string;
  referring: string;
  emergency: string;
  /** account/sso/set for the demo account as its admin: `provider`'s fields, then `extra`. */
  configure(provider: Record<string, string>, extra?: Record<string, string>): Promise<Answer>;
  /** The audit events of `action`, oldest first, as the tests compare them. */
  audit(
    action: string,
  ): Promise<{ user_id: string | null; account_id: string | null; outcome: string; detail: string | null }[]>;
  /** How many rows a table holds (a refused sign-in makes no user and no session). */
  count(table: 'users' | 'sessions'): Promise<number>;
  /** A user's membership of the demo account. */
  membership(userId: string): Promise<{ role_id: string | null }>;
  /** A user's group memberships. */
  groupsOf(userId: string): Promise<{ group_id: string; role_id: string | null }[]>;
}

/** A public URL on a port free right now, for a server started with `startSsoWorld`. */
export async function ssoBase(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** Starts the server at `base` (behind the test client as its trusted proxy) and reads the demo world. */
export async function startSsoWorld(dialect: Dialect, base: string): Promise<SsoWorld> {
  const server = await startTestServer(dialect, {
    PORT: new URL(base).port,
    PUBLIC_URL: base,
    TRUST_PROXY: '127.0.0.1',
  });
  const admin = await server.api.login('admin@demo.local');
  const demoAccount = await firstAccountOf(server.api, admin);
  const roles = (await server.api.call('role/list', { account_id: demoAccount }, admin)).body.roles as {
    uuid: string;
    name: string;
  }[];
  const db = server.ctx.db.kysely;
  return {
    server,
    base,
    admin,
    demoAccount,
    radiologist: roles.find((r) => r.name === 'Radiologist')!.uuid,
    referring: roles.find((r) => r.name === 'Referring physician')!.uuid,
    emergency: (await server.api.groups(admin)).find((g) => g.name === 'Emergency')!.uuid,
    configure: (provider, extra = {}) =>
      server.api.call('account/sso/set', { account_id: demoAccount, ...provider, ...extra }, admin),
    audit: (action) =>
      db
        .selectFrom('audit_events')
        .select(['user_id', 'account_id', 'outcome', 'detail'])
        .where('action', '=', action)
        .orderBy('id')
        .execute(),
    count: async (table) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    membership: (userId) =>
      db.selectFrom('account_members').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow(),
    groupsOf: (userId) => db.selectFrom('group_members').selectAll().where('user_id', '=', userId).execute(),
  };
}
