import { MESSAGES, PROFILE_MESSAGES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)(
  'profile and password (user/get, user/set, user/password/change) on %s',
  (dialect) => {
    let server: TestServer;
    let clinician: string;
    let gatekeeper: string;

    const db = () => server.ctx.db.kysely;
    const userRow = (email: string) =>
      db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    const auditActions = async (action: string) =>
      (
        await db()
          .selectFrom('audit_events')
          .select(['outcome', 'detail'])
          .where('action', '=', action)
          .execute()
      ).map((a) => a.outcome);

    /** Grants (or takes back) user_modify_sharecode on the user's Demo Hospital membership. */
    const setShareCodeRight = async (email: string, granted: boolean) => {
      const user = await userRow(email);
      const member = await db()
        .selectFrom('account_members')
        .leftJoin('roles', 'roles.uuid', 'account_members.role_id')
        .select(['account_members.account_id', 'account_members.permissions', 'roles.permissions as role'])
        .where('user_id', '=', user.uuid)
        .executeTakeFirstOrThrow();
      const held = (JSON.parse(member.role ?? member.permissions) as string[]).filter(
        (p) => p !== 'user_modify_sharecode',
      );
      await db()
        .updateTable('account_members')
        .set({
          permissions: JSON.stringify(granted ? [...held, 'user_modify_sharecode'] : held),
          role_id: null,
        })
        .where('user_id', '=', user.uuid)
        .where('account_id', '=', member.account_id)
        .execute();
    };

    beforeAll(async () => {
      server = await startTestServer(dialect);
      clinician = await server.api.login('clinician@demo.local');
      gatekeeper = await server.api.login('gatekeeper@demo.local');
      // The gatekeeper chooses a share code below: that needs user_modify_sharecode.
      await setShareCodeRight('gatekeeper@demo.local', true);
    });
    afterAll(() => server?.stop());

    it('answers the signed-in user their own profile with the default date format', async () => {
      const { body } = await server.api.get('user/get', { sid: clinician });
      const row = await userRow('clinician@demo.local');
      expect(body).toMatchObject({
        status: 'OK',
        uuid: row.uuid,
        email: 'clinician@demo.local',
        first: row.first_name,
        last: row.last_name,
        mobile_phone: null,
        share_code: null,
        date_format: 'MM-DD-YYYY',
      });
      expect((await server.api.get('user/get', { sid: 'made-up' })).status).toBe(401);
    });

    it('saves the given fields, keeps the others, and audits which fields changed', async () => {
      const { body } = await server.api.call(
        'user/set',
        {
          first: '  Casey ',
          last: 'Clinician',
          time_zone: 'Europe/Berlin',
          mobile_phone: '+44 20 7946 0958',
          date_format: 'YYYY-MM-DD',
        },
        clinician,
      );
      expect(body).toMatchObject({
        status: 'OK',
        message: MESSAGES.profileSaved,
        first: 'Casey',
        time_zone: 'Europe/Berlin',
        mobile_phone: '+442079460958',
        date_format: 'YYYY-MM-DD',
      });
      const row = await userRow('clinician@demo.local');
      expect([row.first_name, row.name, row.time_zone]).toEqual([
        'Casey',
        'Casey Clinician',
        'Europe/Berlin',
      ]);
      const settings = await server.api.get('setting/get', {
        sid: clinician,
        key: 'user_default_date_format',
      });
      expect(settings.body.value).toBe('YYYY-MM-DD');

      // Only the phone this time: the rest stays; an empty value clears an optional field.
      const cleared = await server.api.call('user/set', { mobile_phone: '' }, clinician);
      expect(cleared.body).toMatchObject({ first: 'Casey', time_zone: 'Europe/Berlin', mobile_phone: null });
      const audit = await db()
        .selectFrom('audit_events')
        .select('detail')
        .where('action', '=', 'PROFILE_EDIT')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => JSON.parse(a.detail ?? '{}').fields)).toEqual([
        ['first', 'time_zone', 'mobile_phone', 'date_format'],
        ['mobile_phone'],
      ]);
    });

    it('refuses each bad field with its message and changes nothing', async () => {
      const before = await userRow('gatekeeper@demo.local');
      const cases: [Record<string, string>, string, string][] = [
        [{ first: '  ' }, 'first', PROFILE_MESSAGES.firstNameRequired],
        [{ last: '' }, 'last', PROFILE_MESSAGES.lastNameRequired],
        [{ mobile_phone: '0171 555' }, 'mobile_phone', PROFILE_MESSAGES.phoneInvalid],
        [{ mobile_phone: '+0123456' }, 'mobile_phone', PROFILE_MESSAGES.phoneInvalid],
        [{ date_format: 'DD.MM.YY' }, 'date_format', PROFILE_MESSAGES.dateFormatRequired],
        [{ share_code: 'A!' }, 'share_code', PROFILE_MESSAGES.shareCodeInvalid],
        [
          { share_description: 'x'.repeat(501) },
          'share_description',
          PROFILE_MESSAGES.shareDescriptionTooLong,
        ],
      ];
      for (const [fields, field, message] of cases) {
        // The valid first field of the same call must not be written either.
        const { body } = await server.api.call('user/set', { last: 'Changed', ...fields }, gatekeeper);
        expect(body, JSON.stringify(fields)).toMatchObject({
          status: 'ERROR',
          error_type: 'INVALID_FIELD',
          error_subtype: field,
          error_data: message,
        });
      }
      const zone = await server.api.call('user/set', { time_zone: 'Mars/Olympus' }, gatekeeper);
      expect(zone.body).toMatchObject({ error_type: 'INVALID_TIME_ZONE' });
      const taken = await server.api.call('user/set', { share_code: 'partner-referrals' }, gatekeeper);
      expect(taken.body).toMatchObject({
        error_subtype: 'share_code',
        error_data: PROFILE_MESSAGES.shareCodeTaken,
      });
      expect(await userRow('gatekeeper@demo.local')).toEqual(before);
      expect((await server.api.get('user/get', { sid: gatekeeper })).body.share_code).toBeNull();
    });

    it('a profile share code receives sends from another organisation into Shared with me', async () => {
      const partner = await server.api.login('partner@demo.local');
      const set = await server.api.call(
        'user/set',
        { share_code: 'pat-partner', share_description: 'Dr Partner, second opinions' },
        partner,
      );
      expect(set.body).toMatchObject({
        share_code: 'PAT-PARTNER',
        share_description: 'Dr Partner, second opinions',
      });
      const lookup = await server.api.get('namespace/share_code', {
        sid: clinician,
        share_code: 'pat-partner',
      });
      expect(lookup.body).toMatchObject({ status: 'OK', description: 'Dr Partner, second opinions' });

      const study = await db()
        .selectFrom('studies')
        .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
        .select(['studies.uuid', 'studies.study_uid'])
        .where('groups.name', '=', 'Emergency')
        .executeTakeFirstOrThrow();
      const sent = await server.api.call(
        'study/share',
        { uuid: study.uuid, share_code: 'PAT-PARTNER' },
        clinician,
      );
      expect(sent.body.status).toBe('OK');
      const personal = await db()
        .selectFrom('namespaces')
        .innerJoin('users', 'users.uuid', 'namespaces.owner_user_id')
        .select('namespaces.id')
        .where('users.email', '=', 'partner@demo.local')
        .executeTakeFirstOrThrow();
      let received: { study_uid: string }[] = [];
      for (let i = 0; i < 200 && received.length === 0; i++) {
        const list = await server.api.call(
          'study/list',
          { 'filter.phi_namespace.equals': personal.id },
          partner,
        );
        received = list.body.studies ?? [];
        if (received.length === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect(received.map((r) => r.study_uid)).toEqual([study.study_uid]);

      // The code is now taken for everyone else; saving it again is no conflict with oneself;
      // clearing it frees it.
      const again = await server.api.call('user/set', { share_code: 'PAT-PARTNER' }, gatekeeper);
      expect(again.body.error_data).toBe(PROFILE_MESSAGES.shareCodeTaken);
      expect((await server.api.call('user/set', { share_code: 'PAT-PARTNER' }, partner)).body.status).toBe(
        'OK',
      );
      expect((await server.api.call('user/set', { share_code: '' }, partner)).body.share_code).toBeNull();
      expect((await server.api.call('user/set', { share_code: 'PAT-PARTNER' }, gatekeeper)).body.status).toBe(
        'OK',
      );
    });

    it('a share code needs user_modify_sharecode and is unique across accounts, groups and people in any case', async () => {
      const viewer = await server.api.login('viewer@demo.local');
      const viewerRow = await userRow('viewer@demo.local');
      const registry = () => db().selectFrom('share_codes').selectAll().orderBy('code').execute();
      const before = await registry();
      expect(before.map((r) => r.code)).toEqual(
        expect.arrayContaining(['DEMO-HOSP', 'PARTNER-CLINIC', 'PARTNER-REFERRALS']),
      );

      // study_view only: no code at all, the hospital's or any other; the description neither.
      const changes: Record<string, string>[] = [
        { share_code: 'DEMO-HOSP' },
        { share_code: 'vera-own' },
        { share_description: 'x' },
      ];
      for (const change of changes) {
        const { body } = await server.api.call('user/set', change, viewer);
        expect(body, JSON.stringify(change)).toMatchObject({
          status: 'ERROR',
          error_type: 'NOT_PERMITTED',
          error_subtype: 'user_modify_sharecode',
        });
      }
      // Other fields of the profile stay the user's own to change.
      expect((await server.api.call('user/set', { first: 'Vera' }, viewer)).body.status).toBe('OK');

      // user/get tells the Profile tab whether to offer the field.
      expect((await server.api.get('user/get', { sid: viewer })).body.share_code_editable).toBe(false);

      // With the permission: still no code another owner holds, in any case or padding.
      await setShareCodeRight('viewer@demo.local', true);
      try {
        expect((await server.api.get('user/get', { sid: viewer })).body.share_code_editable).toBe(true);
        for (const code of ['DEMO-HOSP', 'demo-hosp', ' Demo-Hosp ', 'partner-clinic', 'Partner-Referrals']) {
          const { body } = await server.api.call('user/set', { share_code: code }, viewer);
          expect(body, code).toMatchObject({
            status: 'ERROR',
            error_type: 'INVALID_FIELD',
            error_subtype: 'share_code',
            error_data: PROFILE_MESSAGES.shareCodeTaken,
          });
        }
        expect((await server.api.get('user/get', { sid: viewer })).body.share_code).toBeNull();
        expect(await registry()).toEqual(before);

        // Two people claiming one new code at once: exactly one gets it.
        const partner = await server.api.login('partner@demo.local');
        const race = await Promise.all([
          server.api.call('user/set', { share_code: 'race-code' }, viewer),
          server.api.call('user/set', { share_code: 'RACE-CODE' }, partner),
        ]);
        expect(race.map((r) => r.body.status).sort()).toEqual(['ERROR', 'OK']);
        expect(race.find((r) => r.body.status === 'ERROR')!.body.error_data).toBe(
          PROFILE_MESSAGES.shareCodeTaken,
        );
        expect((await registry()).filter((r) => r.code === 'RACE-CODE')).toHaveLength(1);
        for (const sid of [viewer, partner]) await server.api.call('user/set', { share_code: '' }, sid);
        expect((await registry()).some((r) => r.code === 'RACE-CODE')).toBe(false);
      } finally {
        await setShareCodeRight('viewer@demo.local', false);
      }

      // A send to the hospital's code never reaches the viewer's personal inbox: the account's own
      // code names no group, so it is refused as an unknown code.
      const study = await db()
        .selectFrom('studies')
        .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
        .select('studies.uuid')
        .where('groups.name', '=', 'Emergency')
        .executeTakeFirstOrThrow();
      const sent = await server.api.call(
        'study/share',
        { uuid: study.uuid, share_code: 'demo-hosp' },
        clinician,
      );
      expect(sent.body).toMatchObject({ status: 'ERROR', error_type: 'NAMESPACE_NOT_FOUND' });
      const lookup = await server.api.get('namespace/share_code', {
        sid: clinician,
        share_code: 'DEMO-HOSP',
      });
      expect(lookup.body.error_type).toBe('NAMESPACE_NOT_FOUND');
      const personal = await db()
        .selectFrom('namespaces')
        .select('id')
        .where('owner_user_id', '=', viewerRow.uuid)
        .execute();
      const landed = personal.length
        ? await db()
            .selectFrom('studies')
            .select('uuid')
            .where(
              'namespace_id',
              'in',
              personal.map((p) => p.id),
            )
            .execute()
        : [];
      expect(landed).toEqual([]);
    });

    it('keeps the chosen language, clears it with an empty value, and leaves it on other saves', async () => {
      const viewer = await server.api.login('viewer@demo.local');
      expect((await server.api.get('user/get', { sid: viewer })).body.language).toBe('');
      // Only this test's saves (the share-code test above saved the viewer's profile too).
      const since = Number(
        (
          await db()
            .selectFrom('audit_events')
            .select((e) => e.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );

      const set = await server.api.call('user/set', { language: 'fr' }, viewer);
      expect(set.body).toMatchObject({ status: 'OK', language: 'fr' });
      expect((await userRow('viewer@demo.local')).language).toBe('fr');
      // A Profile form save does not send the language: it stays.
      await server.api.call('user/set', { first: 'Robin' }, viewer);
      expect((await server.api.get('user/get', { sid: viewer })).body.language).toBe('fr');

      const cleared = await server.api.call('user/set', { language: '' }, viewer);
      expect(cleared.body.language).toBe('');
      expect((await userRow('viewer@demo.local')).language).toBeNull();

      const audit = await db()
        .selectFrom('audit_events')
        .select(['detail', 'user_id'])
        .where('action', '=', 'PROFILE_EDIT')
        .where('user_id', '=', (await userRow('viewer@demo.local')).uuid)
        .where('id', '>', since)
        .orderBy('id')
        .execute();
      expect(audit.map((a) => JSON.parse(a.detail ?? '{}').fields)).toEqual([
        ['language'],
        ['first'],
        ['language'],
      ]);
    });

    it('refuses a language it does not speak and changes nothing', async () => {
      const sid = await server.api.login('viewer@demo.local');
      await server.api.call('user/set', { language: 'es' }, sid);
      const before = await userRow('viewer@demo.local');
      for (const language of ['de', 'EN', 'fr-FR', 'english', 'x'.repeat(5000)]) {
        const { body } = await server.api.call('user/set', { first: 'Changed', language }, sid);
        expect(body, language).toMatchObject({
          status: 'ERROR',
          error_type: 'INVALID_FIELD',
          error_subtype: 'language',
          error_data: PROFILE_MESSAGES.languageInvalid,
        });
      }
      expect(await userRow('viewer@demo.local')).toEqual(before);
    });

    it('changes the password with the current one, ends the other sessions, keeps this one', async () => {
      const other = await server.api.login('viewer@demo.local');
      const current = await server.api.login('viewer@demo.local');
      const mismatch = await server.api.call(
        'user/password/change',
        { old_password: DEMO_PASSWORD, password: 'Fresh-pass-55', password_confirm: 'Fresh-pass-56' },
        current,
      );
      expect(mismatch.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'password_confirm' });
      const missing = await server.api.call('user/password/change', { password: 'Fresh-pass-55' }, current);
      expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS', error_subtype: 'old_password' });
      const wrongOld = await server.api.call(
        'user/password/change',
        { old_password: 'Not-it-11', password: 'Fresh-pass-55', password_confirm: 'Fresh-pass-55' },
        current,
      );
      expect(wrongOld.body.error_type).toBe('INVALID_PASSWORD');
      const weak = await server.api.call(
        'user/password/change',
        { old_password: DEMO_PASSWORD, password: 'abcdefgh', password_confirm: 'abcdefgh' },
        current,
      );
      expect(weak.body.error_type).toBe('BAD_PASSWORD');
      const reused = await server.api.call(
        'user/password/change',
        { old_password: DEMO_PASSWORD, password: DEMO_PASSWORD, password_confirm: DEMO_PASSWORD },
        current,
      );
      expect(reused.body).toMatchObject({ error_type: 'BAD_PASSWORD', error_subtype: 'reused' });
      // None of the refusals changed anything: both sessions still work.
      expect((await server.api.get('user/get', { sid: other })).status).toBe(200);

      const ok = await server.api.call(
        'user/password/change',
        { old_password: DEMO_PASSWORD, password: 'Fresh-pass-55', password_confirm: 'Fresh-pass-55' },
        current,
      );
      expect(ok.body).toMatchObject({ status: 'OK', message: MESSAGES.passwordChanged });
      expect((await server.api.get('user/get', { sid: current })).status).toBe(200);
      expect((await server.api.get('user/get', { sid: other })).status).toBe(401);
      await server.api.login('viewer@demo.local', 'Fresh-pass-55');
      expect(await auditActions('PASSWORD_CHANGE')).toEqual(['FAILURE', 'SUCCESS']);
    });

    it('wrong current passwords count against the sign-in limit', async () => {
      const sid = await server.api.login('admin@demo.local');
      const attempt = () =>
        server.api.call(
          'user/password/change',
          { old_password: 'Wrong-pass-00', password: 'Fresh-pass-55', password_confirm: 'Fresh-pass-55' },
          sid,
        );
      for (let i = 0; i < 5; i++) expect((await attempt()).body.error_type).toBe('INVALID_PASSWORD');
      expect((await attempt()).status).toBe(429);
      const login = await server.api.call('session/login', {
        login: 'admin@demo.local',
        password: DEMO_PASSWORD,
      });
      expect(login.body.error_type).toBe('RATE_LIMITED');
    });
  },
);
