import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/** namespace/settings (SPEC.md section 7, Ambra's parameters): read by members, set by group editors. */
describe.each(DIALECTS)('namespace/settings on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let emergency: string;
  let cardiology: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(clinician, 'Emergency');
    cardiology = await server.api.namespaceOf(clinician, 'Cardiology');
  });
  afterAll(() => server?.stop());

  it("reads a namespace's settings: its account's value until the namespace has its own", async () => {
    const read = await server.api.get('namespace/settings', { sid: clinician, uuid: emergency });
    expect(read.body).toEqual({ status: 'OK', uuid: emergency, settings: { enable_dicom_wrapping: '1' } });
    const byAdmin = await server.api.call('namespace/settings', { uuid: emergency }, admin);
    expect(byAdmin.body.settings).toEqual({ enable_dicom_wrapping: '1' });
  });

  it('sets the non-DICOM upload off for one group: the upload wizard and the wrap call follow it', async () => {
    const set = await server.api.call(
      'namespace/settings',
      { uuid: emergency, enable_dicom_wrapping: '0' },
      admin,
    );
    expect(set.body).toEqual({ status: 'OK', uuid: emergency, settings: { enable_dicom_wrapping: '0' } });
    const shareCode = await server.api.call('namespace/share_code', { namespace_id: emergency }, clinician);
    expect(shareCode.body.settings).toEqual({ enable_dicom_wrapping: '0' });
    // Another group of the account keeps the account's value.
    const other = await server.api.call('namespace/settings', { uuid: cardiology }, clinician);
    expect(other.body.settings).toEqual({ enable_dicom_wrapping: '1' });
    const wrap = await fetch(
      `${server.api.baseUrl}/api/v3/storage/namespace/${emergency}/wrap?sid=${clinician}`,
      {
        method: 'POST',
        body: new FormData(),
      },
    );
    expect(await wrap.json()).toMatchObject({
      error_type: 'NOT_PERMITTED',
      error_subtype: 'enable_dicom_wrapping',
    });
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'object_id', 'detail'])
      .where('action', '=', 'NAMESPACE_SETTINGS')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.object_id).toBe(emergency);
    const back = await server.api.call(
      'namespace/settings',
      { uuid: emergency, enable_dicom_wrapping: '1' },
      admin,
    );
    expect(back.body.settings).toEqual({ enable_dicom_wrapping: '1' });
  });

  it('refuses a member without group_edit, a bad value, a setting not kept here and an unknown namespace; nothing changes', async () => {
    const member = await server.api.call(
      'namespace/settings',
      { uuid: emergency, enable_dicom_wrapping: '0' },
      clinician,
    );
    expect(member.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'group_edit' });
    const badValue = await server.api.call(
      'namespace/settings',
      { uuid: emergency, enable_dicom_wrapping: 'yes' },
      admin,
    );
    expect(badValue.body).toMatchObject({
      error_type: 'INVALID_SETTING_VALUE',
      error_subtype: 'enable_dicom_wrapping',
    });
    const notKept = await server.api.call(
      'namespace/settings',
      { uuid: emergency, no_dup_share: '1' },
      admin,
    );
    expect(notKept.body).toMatchObject({ error_type: 'INVALID_SETTING', error_subtype: 'no_dup_share' });
    const missing = await server.api.call('namespace/settings', {}, admin);
    expect(missing.body.error_type).toBe('MISSING_FIELDS');
    const unknown = await server.api.call('namespace/settings', { uuid: 'no-such-namespace' }, admin);
    expect(unknown.body).toMatchObject({ error_type: 'NOT_FOUND' });
    const partner = await server.api.login('partner@demo.local');
    const foreign = await server.api.call('namespace/settings', { uuid: emergency }, partner);
    expect(foreign.body).toMatchObject({ error_type: 'NOT_FOUND' });
    const after = await server.api.call('namespace/settings', { uuid: emergency }, clinician);
    expect(after.body.settings).toEqual({ enable_dicom_wrapping: '1' });
  });
});
