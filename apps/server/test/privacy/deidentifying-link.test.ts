import { beforeAll, describe, expect, it } from 'vitest';
import { usePrivacyWorld } from '../support/privacy-world.js';
import { DIALECTS } from '../support/test-server.js';

/**
 * A request link that de-identifies what is uploaded through it (issue 33, decision 0071): the
 * group holds only the copy the one engine made, files that may show burned-in text are refused
 * with nothing stored, documents are not taken, and no account may name another account's profile.
 */
describe.each(DIALECTS)('a de-identifying request link on %s', (dialect) => {
  const w = usePrivacyWorld(dialect);
  let profile: { uuid: string; name: string };
  let grant: string;
  let token: string;

  const emergency = () => w.groups['Emergency']!.namespace_id;
  const linkUpload = async (bytes: Uint8Array) => {
    const response = await fetch(`${w.server.url}/api/v3/link/public/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/dicom', 'x-link-grant': grant },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const addLink = (sid: string, namespaceId: string, extra: Record<string, string>) =>
    w.call(
      'link/add',
      {
        namespace_id: namespaceId,
        action: 'STUDY_UPLOAD',
        email: `deid-${Math.random().toString(36).slice(2, 8)}@hospital.example`,
        max_hits: 100,
        minutes_alive: 600,
        notify: 0,
        ...extra,
      },
      sid,
    );

  beforeAll(async () => {
    profile = await w.addProfile('Outside uploads');
  });

  it('keeps the profile on the link it was asked for, audited', async () => {
    const added = await addLink(w.clinician, emergency(), { anonymization_id: profile.uuid });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const row = await w.server.ctx.db.kysely
      .selectFrom('links')
      .select(['uuid', 'email', 'anonymization_id'])
      .orderBy('created', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.anonymization_id).toBe(profile.uuid);
    const event = await w.server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', row.uuid)
      .where('action', '=', 'LINK_CREATE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.detail!)).toMatchObject({
      deidentified: { profile: profile.uuid, name: 'Outside uploads' },
    });
    const mail = await w.server.ctx.db.kysely
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', row.email)
      .executeTakeFirstOrThrow();
    token = /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
    const unlocked = await w.call('link/public/unlock', { token });
    grant = unlocked.body.grant as string;
    // Documents wrapped with the form's patient details cannot be de-identified: not offered.
    expect((await w.call('link/public/info', { token })).body.accepts_documents).toBe(false);
  });

  it('stores only the de-identified copy of an upload: no original name, ID or UID in the group', async () => {
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.11', patient: 'Okafor^Chidi', id: 'MRN-5521' };
    const bytes = w.sample('CT_small.dcm', patient);
    const uploaded = await linkUpload(bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(202);
    const study = await w.server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'patient_name', 'patientid', 'namespace_id', 'source_ae_title'])
      .where('uuid', '=', uploaded.body.study_uuid as string)
      .executeTakeFirstOrThrow();
    expect(study).toMatchObject({ namespace_id: emergency(), source_ae_title: 'LINK' });
    expect(study.study_uid).not.toBe(patient.uid);
    expect(study.patient_name).toMatch(/^ANONYMOUS\^[0-9A-F]{12}$/);
    expect(study.patientid).toMatch(/^ANON[0-9A-F]{12}$/);
    // Nothing under the original study UID anywhere, and no stored file carries the patient.
    expect(
      await w.server.ctx.db.kysely
        .selectFrom('studies')
        .select('uuid')
        .where('study_uid', '=', patient.uid)
        .execute(),
    ).toEqual([]);
    const files = await w.server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', study.uuid)
      .execute();
    expect(files).toHaveLength(1);
    const stored = (await w.server.ctx.services.blobs.read(files[0]!.blob_key)).toString('latin1');
    for (const value of ['Okafor', 'Chidi', 'MRN-5521', patient.uid, '1CT1'])
      expect(stored).not.toContain(value);
    expect(stored).toContain('ANONYMOUS^');
  });

  it('refuses a file that may show burned-in text, storing nothing', async () => {
    const before = { studies: await w.count('studies'), instances: await w.count('instances') };
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.12', patient: 'Okafor^Ada', id: 'MRN-5522' };
    const refused = await linkUpload(w.sample('SC_rgb_small_odd.dcm', patient));
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'burned_in_text' });
    expect({ studies: await w.count('studies'), instances: await w.count('instances') }).toEqual(before);
  });

  it("refuses another account's profile, or a made-up one, on a new link, adding nothing", async () => {
    const before = await w.count('links');
    const partnerGroup = await w.server.api.namespaceOf(
      w.partnerAdmin,
      (await w.server.api.groups(w.partnerAdmin))[0]!.name,
    );
    for (const [sid, namespaceId, id] of [
      [w.partnerAdmin, partnerGroup, profile.uuid],
      [w.clinician, emergency(), w.partnerProfile],
      [w.clinician, emergency(), 'made-up'],
    ] as const) {
      const refused = await addLink(sid, namespaceId, { anonymization_id: id });
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    }
    expect(await w.count('links')).toBe(before);
  });
});
