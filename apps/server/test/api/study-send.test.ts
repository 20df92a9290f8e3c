import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

type Row = { uuid: string; study_uid: string; namespace_id: string };

describe.each(DIALECTS)('send exams on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let gatekeeper: string;
  let partner: string;
  let emergency: Row[];
  let cardiology: Row[];
  let demoAccount: string;
  let connection: string;

  const db = () => server.ctx.db.kysely;
  const studiesOf = (group: string) =>
    db()
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id'])
      .where('groups.name', '=', group)
      .orderBy('studies.uuid')
      .execute();
  const sendCount = async () => (await db().selectFrom('study_sends').select('uuid').execute()).length;
  const send = (uuid: string, target: Record<string, string>, sid = clinician) =>
    server.api.call('study/share', { uuid, ...target }, sid);

  /** The send's status once its job has run (sends now run in the server's job runner). */
  async function settled(studyUuid: string, sendId: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const list = await server.api.call('study/send/list', { uuid: studyUuid }, clinician);
      const item = list.body.sends.find((s: { uuid: string }) => s.uuid === sendId);
      if (item && item.status !== 'scheduled') return item.status;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('send did not run');
  }

  async function partnerReferrals(): Promise<{ uuid: string; study_uid: string; share_message: string }[]> {
    const ns = await server.api.namespaceOf(partner, 'Referrals');
    const { body } = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': ns, 'filter.source.equals': 'share' },
      partner,
    );
    return body.studies;
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    gatekeeper = await server.api.login('gatekeeper@demo.local');
    partner = await server.api.login('partner@demo.local');
    emergency = await studiesOf('Emergency');
    cardiology = await studiesOf('Cardiology');
    demoAccount = await accountIdOf(server.ctx.db, 'Demo Hospital');
    const list = await server.api.call('connection/list', { account_id: demoAccount }, clinician);
    connection = list.body.connections[0].uuid;
  });
  afterAll(() => server?.stop());

  it('lists the account connections and looks share codes up', async () => {
    const list = await server.api.call('connection/list', { account_id: demoAccount }, clinician);
    expect(list.body.connections).toEqual([
      expect.objectContaining({
        name: 'Partner Clinic',
        namespace_name: 'Referrals',
        organization: 'Partner Clinic',
      }),
    ]);
    expect(
      (await server.api.call('connection/list', { account_id: demoAccount }, partner)).body.error_type,
    ).toBe('NOT_FOUND');
    const code = await server.api.get('namespace/share_code', {
      sid: clinician,
      share_code: 'partner-referrals',
    });
    expect(code.body).toMatchObject({
      status: 'OK',
      name: 'Referrals',
      organization: 'Partner Clinic',
      share_code: 'PARTNER-REFERRALS',
    });
    expect(code.body.description).toContain('referrals');
    // By namespace id: only for the caller's own groups.
    const own = await server.api.get('namespace/share_code', {
      sid: partner,
      namespace_id: code.body.namespace_id,
    });
    expect(own.body.share_code).toBe('PARTNER-REFERRALS');
    const other = await server.api.get('namespace/share_code', {
      sid: viewer,
      namespace_id: code.body.namespace_id,
    });
    expect(other.body.error_type).toBe('NOT_FOUND');
    expect(
      (await server.api.get('namespace/share_code', { sid: clinician, share_code: 'NOPE' })).body.error_type,
    ).toBe('NAMESPACE_NOT_FOUND');
    expect((await server.api.get('namespace/share_code', { sid: clinician })).body.error_type).toBe(
      'MISSING_FIELDS',
    );
  });

  it('sends to a connection and by share code: a copy in the partner group, audited', async () => {
    const [a, b] = emergency;
    const byConnection = await send(a!.uuid, { account_id: connection, message: ' second opinion ' });
    expect(byConnection.body).toMatchObject({ status: 'OK', send_status: 'scheduled' });
    expect(await settled(a!.uuid, byConnection.body.send_id)).toBe('sent');
    const byCode = await send(b!.uuid, { share_code: 'PARTNER-REFERRALS', message: 'by code' });
    expect(await settled(b!.uuid, byCode.body.send_id)).toBe('sent');

    const received = await partnerReferrals();
    expect(received.map((s) => s.study_uid).sort()).toEqual([a!.study_uid, b!.study_uid].sort());
    expect(received.find((s) => s.study_uid === a!.study_uid)?.share_message).toBe('second opinion');
    // The copy belongs to the partner account, with the same files.
    const copy = await db()
      .selectFrom('studies')
      .select(['account_id', 'uuid'])
      .where('shared_from', '=', a!.uuid)
      .executeTakeFirstOrThrow();
    expect(copy.account_id).not.toBe(demoAccount);
    const keys = async (uuid: string) =>
      (await db().selectFrom('instances').select('blob_key').where('study_uuid', '=', uuid).execute())
        .map((r) => r.blob_key)
        .sort();
    expect(await keys(copy.uuid)).toEqual(await keys(a!.uuid));

    const audit = await db()
      .selectFrom('audit_events')
      .select(['action', 'object_type', 'detail', 'outcome'])
      .where('object_id', '=', a!.uuid)
      .where((eb) =>
        eb.or([
          eb.and([eb('action', '=', 'CREATE'), eb('object_type', '=', 'send')]),
          eb('action', '=', 'STUDY_SEND'),
        ]),
      )
      .orderBy('id')
      .execute();
    expect(audit.map((e) => `${e.action}/${e.object_type}/${e.outcome}`)).toEqual([
      'CREATE/send/SUCCESS',
      'STUDY_SEND/study/SUCCESS',
    ]);
    expect(JSON.parse(audit[0]!.detail!)).toMatchObject({
      method: 'account',
      delayed: false,
    });
    const list = await server.api.call('study/send/list', { uuid: a!.uuid }, clinician);
    expect(list.body.sends[0]).toMatchObject({
      method: 'account',
      target: 'Partner Clinic / Referrals',
      status: 'sent',
    });
  });

  it('delays a send by three minutes, cancellable until it runs; a sent one cannot be cancelled', async () => {
    const study = emergency[2]!;
    const before = Date.now();
    const delayed = await send(study.uuid, { share_code: 'PARTNER-REFERRALS', delay: '1' });
    expect(delayed.body.send_status).toBe('scheduled');
    expect(delayed.body.run_at).toBeGreaterThanOrEqual(before + 180_000);
    expect(delayed.body.run_at).toBeLessThan(Date.now() + 181_000);
    const viewerCancel = await server.api.call('study/send/cancel', { uuid: delayed.body.send_id }, viewer);
    expect(viewerCancel.body.error_type).toBe('NOT_PERMITTED');
    const cancel = await server.api.call('study/send/cancel', { uuid: delayed.body.send_id }, clinician);
    expect(cancel.body).toMatchObject({ status: 'OK', send_status: 'cancelled' });
    const again = await server.api.call('study/send/cancel', { uuid: delayed.body.send_id }, clinician);
    expect(again.body.error_type).toBe('ALREADY_SENT');
    const row = await db()
      .selectFrom('study_sends')
      .innerJoin('jobs', 'jobs.id', 'study_sends.job_id')
      .select(['study_sends.status', 'jobs.status as job_status'])
      .where('study_sends.uuid', '=', delayed.body.send_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', job_status: 'cancelled' });

    // A delayed send that comes due is delivered by the runner.
    const later = await send(study.uuid, { account_id: connection, delay: '1' });
    const jobId = (
      await db()
        .selectFrom('study_sends')
        .select('job_id')
        .where('uuid', '=', later.body.send_id)
        .executeTakeFirstOrThrow()
    ).job_id!;
    await db().updateTable('jobs').set({ run_at: Date.now() }).where('id', '=', Number(jobId)).execute();
    server.ctx.services.jobRunner.kick();
    expect(await settled(study.uuid, later.body.send_id)).toBe('sent');
    expect((await partnerReferrals()).map((s) => s.study_uid)).toContain(study.study_uid);
    const late = await server.api.call('study/send/cancel', { uuid: later.body.send_id }, clinician);
    expect(late.body.error_type).toBe('ALREADY_SENT');
    const unknown = await server.api.call('study/send/cancel', { uuid: crypto.randomUUID() }, clinician);
    expect(unknown.body.error_type).toBe('NOT_FOUND');
    const hidden = await server.api.call('study/send/cancel', { uuid: later.body.send_id }, gatekeeper);
    expect(hidden.body.error_type).toBe('NOT_FOUND');
  });

  it('needs study_share and the method flag on the study; refuses bad input, changing nothing', async () => {
    const study = cardiology[0]!;
    const clinicianId = (
      await db()
        .selectFrom('users')
        .select('uuid')
        .where('email', '=', 'clinician@demo.local')
        .executeTakeFirstOrThrow()
    ).uuid;
    const membership = db()
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.uuid', 'group_members.group_id')
      .select(['group_members.group_id', 'group_members.permissions'])
      .where('groups.name', '=', 'Cardiology')
      .where('group_members.user_id', '=', clinicianId);
    const { group_id: groupId, permissions } = await membership.executeTakeFirstOrThrow();
    const granted: string[] = JSON.parse(permissions);
    const setPermissions = (list: string[]) =>
      db()
        .updateTable('group_members')
        .set({ permissions: JSON.stringify(list), role_id: null })
        .where('group_id', '=', groupId)
        .where('user_id', '=', clinicianId)
        .execute();
    const targets: [string, Record<string, string>][] = [
      ['study_share_account', { account_id: connection }],
      ['study_share_share_code', { share_code: 'PARTNER-REFERRALS' }],
      ['study_share_email', { email: 'someone@example.org' }],
    ];
    const count = await sendCount();
    try {
      for (const [flag, target] of targets) {
        await setPermissions(granted.filter((p) => p !== flag));
        const refused = await send(study.uuid, target);
        expect({ flag, type: refused.body.error_type, sub: refused.body.error_subtype }).toEqual({
          flag,
          type: 'NOT_PERMITTED',
          sub: flag,
        });
      }
      await setPermissions(granted.filter((p) => p !== 'study_share'));
      for (const [, target] of targets)
        expect((await send(study.uuid, target)).body.error_type).toBe('NOT_PERMITTED');
    } finally {
      await setPermissions(granted);
    }

    const other = await db()
      .selectFrom('users')
      .select('uuid')
      .where('email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('studies')
      .set({ is_locked: 1, locked_by: other.uuid, locked_at: Date.now() }) // a live lock: one lapses 15 minutes after it was taken
      .where('uuid', '=', study.uuid)
      .execute();
    const locked = await send(study.uuid, { share_code: 'PARTNER-REFERRALS' });
    await db()
      .updateTable('studies')
      .set({ is_locked: 0, locked_by: null })
      .where('uuid', '=', study.uuid)
      .execute();
    expect(locked.body.error_type).toBe('LOCKED');

    const cases: [string, Record<string, string>, string, string][] = [
      [crypto.randomUUID(), { share_code: 'PARTNER-REFERRALS' }, clinician, 'NOT_FOUND'],
      [study.uuid, { email: '' }, clinician, 'MISSING_FIELDS'],
      [study.uuid, { share_code: '  ' }, clinician, 'MISSING_FIELDS'],
      [study.uuid, {}, clinician, 'MISSING_FIELDS'],
      [study.uuid, { email: 'not-an-address' }, clinician, 'INVALID_FIELD'],
      [study.uuid, { email: 'a@b.org', share_code: 'PARTNER-REFERRALS' }, clinician, 'INVALID_FIELD'],
      [study.uuid, { share_code: 'NO-SUCH-CODE' }, clinician, 'NAMESPACE_NOT_FOUND'],
      [study.uuid, { account_id: crypto.randomUUID() }, clinician, 'NOT_FOUND'],
      [
        study.uuid,
        { share_code: 'PARTNER-REFERRALS', message: 'x'.repeat(1025) },
        clinician,
        'INVALID_FIELD',
      ],
      [study.uuid, { share_code: 'PARTNER-REFERRALS' }, viewer, 'NOT_FOUND'],
      [emergency[0]!.uuid, { share_code: 'PARTNER-REFERRALS' }, viewer, 'NOT_PERMITTED'],
      [study.uuid, { share_code: 'PARTNER-REFERRALS' }, gatekeeper, 'NOT_FOUND'],
    ];
    for (const [uuid, target, sid, errorType] of cases) {
      const { body } = await send(uuid, target, sid);
      expect({ target, type: body.error_type }).toEqual({ target, type: errorType });
    }
    expect(await sendCount()).toBe(count);
  });

  it('sends a multi-selection as one bundle, each study checked on its own', async () => {
    const permitted = cardiology[1]!;
    const personal = emergency[3]!;
    const answers = await fetch(`${server.url}/api/v3/bundle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { URL: '/study/share', sid: clinician, uuid: permitted.uuid, share_code: 'PARTNER-REFERRALS' },
        { URL: '/study/share', sid: clinician, uuid: personal.uuid, share_code: 'PARTNER-REFERRALS' },
        { URL: '/study/share', sid: viewer, uuid: personal.uuid, share_code: 'PARTNER-REFERRALS' },
      ]),
    }).then((r) => r.json() as Promise<{ status: string; error_type?: string; send_id?: string }[]>);
    expect(answers.map((a) => a.status)).toEqual(['OK', 'OK', 'ERROR']);
    expect(answers[2]!.error_type).toBe('NOT_PERMITTED');
    expect(await settled(permitted.uuid, answers[0]!.send_id!)).toBe('sent');
  });

  it('e-mails a link the recipient opens after verifying the address, then downloads', async () => {
    const study = cardiology[2]!;
    const sent = await send(study.uuid, { email: 'Recipient@Example.org', message: 'ct for you' });
    expect(await settled(study.uuid, sent.body.send_id)).toBe('sent');
    const mails = () =>
      db()
        .selectFrom('outbox')
        .selectAll()
        .where('to_address', '=', 'recipient@example.org')
        .orderBy('id', 'desc')
        .execute();
    const [mail] = await mails();
    expect(mail!.subject).toBe('Claire Clinician sent you an exam');
    expect(mail!.body).toContain('ct for you');
    const token = /\/send\/([A-Za-z0-9_-]+)/.exec(mail!.body)![1]!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    // Stored hashed only.
    const stored = await db()
      .selectFrom('study_sends')
      .selectAll()
      .where('uuid', '=', sent.body.send_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);

    const info = await server.api.call('send/public/info', { token });
    expect(info.body).toMatchObject({
      status: 'OK',
      sender_name: 'Claire Clinician',
      organization: 'Demo Hospital',
      message: 'ct for you',
      email_hint: 'r***@example.org',
    });
    expect(JSON.stringify(info.body)).not.toContain('patient');
    expect((await server.api.call('send/public/info', { token: `${token}x` })).body.error_type).toBe(
      'NO_LINK_ERROR',
    );
    expect((await server.api.call('send/public/study', { grant: token })).body.error_type).toBe(
      'NO_LINK_ERROR',
    );

    expect((await server.api.call('send/public/verify', { token, code: '123456' })).body.error_type).toBe(
      'INVALID_FIELD',
    );
    expect((await server.api.call('send/public/code', { token })).body.status).toBe('OK');
    const code = /code is (\d{6})/.exec((await mails())[0]!.body)![1]!;
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await server.api.call('send/public/verify', { token, code: wrong })).body.error_type).toBe(
      'INVALID_FIELD',
    );
    const verified = await server.api.call('send/public/verify', { token, code });
    expect(verified.body.status).toBe('OK');
    // One use only.
    expect((await server.api.call('send/public/verify', { token, code })).body.error_type).toBe(
      'INVALID_FIELD',
    );

    const grant = verified.body.grant as string;
    const summary = await server.api.call('send/public/study', { grant });
    const original = await db()
      .selectFrom('studies')
      .selectAll()
      .where('uuid', '=', study.uuid)
      .executeTakeFirstOrThrow();
    expect(summary.body.study).toMatchObject({
      patient_name: original.patient_name,
      patientid: original.patientid,
      study_description: original.study_description,
    });
    const zip = await fetch(`${server.url}/api/v3/send/public/download?grant=${grant}`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = new Uint8Array(await zip.arrayBuffer());
    expect([...bytes.subarray(0, 2)]).toEqual([0x50, 0x4b]);
    const downloads = await db()
      .selectFrom('audit_events')
      .select(['action', 'user_id', 'detail'])
      .where('object_id', '=', study.uuid)
      .where('action', 'in', ['STUDY_VIEW', 'STUDY_DOWNLOAD'])
      .where('user_id', 'is', null)
      .execute();
    expect(downloads.map((d) => d.action).sort()).toEqual(['STUDY_DOWNLOAD', 'STUDY_VIEW']);

    // Wrong codes lock the link for the window, even for the right code.
    await server.api.call('send/public/code', { token });
    const fresh = /code is (\d{6})/.exec((await mails())[0]!.body)![1]!;
    const bad = fresh === '000000' ? '000001' : '000000';
    for (let i = 0; i < 3; i++) await server.api.call('send/public/verify', { token, code: bad });
    const locked = await server.api.call('send/public/verify', { token, code: fresh });
    expect(locked.body.error_type).toBe('RATE_LIMITED');

    // Deleting the study ends the link.
    await db().updateTable('studies').set({ deleted: Date.now() }).where('uuid', '=', study.uuid).execute();
    expect((await server.api.call('send/public/study', { grant })).body.error_type).toBe('NO_LINK_ERROR');
    await db().updateTable('studies').set({ deleted: null }).where('uuid', '=', study.uuid).execute();
  });
});
