import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/** A pydicom sample given one patient's name, ID and study UID (dcmtk's dcmodify on a copy). */
function sample(dir: string, name: string, study: { uid: string; patient: string; id: string }): Buffer {
  const file = path.join(dir, `${study.uid}-${name}`);
  fs.copyFileSync(path.join(PYDICOM, name), file);
  execFileSync('dcmodify', [
    '-nb',
    '-m',
    `(0020,000d)=${study.uid}`,
    '-m',
    `(0010,0010)=${study.patient}`,
    '-m',
    `(0010,0020)=${study.id}`,
    file,
  ]);
  return fs.readFileSync(file);
}

/**
 * A request link that de-identifies what is uploaded through it (issue 33, decision 0071): the
 * group holds only the copy the one engine made, files that may show burned-in text are refused
 * with nothing stored, documents are not taken, and no account may name another account's profile.
 */
describe.each(DIALECTS)('a de-identifying request link on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let partnerAdmin: string;
  let account: string;
  let partnerAccount: string;
  let emergency: string;
  let profile: { uuid: string; name: string };
  let partnerProfile: string;
  let workDir: string;
  let grant: string;
  let token: string;

  const call = (name: string, params: Record<string, string | number>, sid?: string) =>
    server.api.call(name, params, sid);
  const linkUpload = async (bytes: Uint8Array) => {
    const response = await fetch(`${server.url}/api/v3/link/public/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/dicom', 'x-link-grant': grant },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const count = async (table: 'links' | 'studies' | 'instances') =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const addLink = (sid: string, namespaceId: string, extra: Record<string, string>) =>
    call(
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
    server = await startTestServer(dialect);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deid-link-files-'));
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    partnerAdmin = await server.api.login('partner@demo.local');
    const accounts = await server.ctx.db.kysely.selectFrom('accounts').select(['uuid', 'vanity']).execute();
    account = accounts.find((a) => a.vanity === 'demo')!.uuid;
    partnerAccount = accounts.find((a) => a.vanity === 'partner')!.uuid;
    emergency = await server.api.namespaceOf(clinician, 'Emergency');
    profile = (await call('anonymization/add', { account_id: account, name: 'Outside uploads' }, admin)).body;
    partnerProfile = (
      await call('anonymization/add', { account_id: partnerAccount, name: 'Partner profile' }, partnerAdmin)
    ).body.uuid;
  });
  afterAll(async () => {
    await server?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('keeps the profile on the link it was asked for, audited', async () => {
    const added = await addLink(clinician, emergency, { anonymization_id: profile.uuid });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const row = await server.ctx.db.kysely
      .selectFrom('links')
      .select(['uuid', 'email', 'anonymization_id'])
      .orderBy('created', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.anonymization_id).toBe(profile.uuid);
    const event = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', row.uuid)
      .where('action', '=', 'LINK_CREATE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.detail!)).toMatchObject({
      deidentified: { profile: profile.uuid, name: 'Outside uploads' },
    });
    const mail = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', row.email)
      .executeTakeFirstOrThrow();
    token = /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
    const unlocked = await call('link/public/unlock', { token });
    grant = unlocked.body.grant as string;
    // Documents wrapped with the form's patient details cannot be de-identified: not offered.
    expect((await call('link/public/info', { token })).body.accepts_documents).toBe(false);
  });

  it('stores only the de-identified copy of an upload: no original name, ID or UID in the group', async () => {
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.11', patient: 'Okafor^Chidi', id: 'MRN-5521' };
    const bytes = sample(workDir, 'CT_small.dcm', patient);
    const uploaded = await linkUpload(bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(202);
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'patient_name', 'patientid', 'namespace_id', 'source_ae_title'])
      .where('uuid', '=', uploaded.body.study_uuid as string)
      .executeTakeFirstOrThrow();
    expect(study).toMatchObject({ namespace_id: emergency, source_ae_title: 'LINK' });
    expect(study.study_uid).not.toBe(patient.uid);
    expect(study.patient_name).toMatch(/^ANONYMOUS\^[0-9A-F]{12}$/);
    expect(study.patientid).toMatch(/^ANON[0-9A-F]{12}$/);
    // Nothing under the original study UID anywhere, and no stored file carries the patient.
    expect(
      await server.ctx.db.kysely
        .selectFrom('studies')
        .select('uuid')
        .where('study_uid', '=', patient.uid)
        .execute(),
    ).toEqual([]);
    const files = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', study.uuid)
      .execute();
    expect(files).toHaveLength(1);
    const stored = (await server.ctx.services.blobs.read(files[0]!.blob_key)).toString('latin1');
    for (const value of ['Okafor', 'Chidi', 'MRN-5521', patient.uid, '1CT1'])
      expect(stored).not.toContain(value);
    expect(stored).toContain('ANONYMOUS^');
  });

  it('refuses a file that may show burned-in text, storing nothing', async () => {
    const before = { studies: await count('studies'), instances: await count('instances') };
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.12', patient: 'Okafor^Ada', id: 'MRN-5522' };
    const refused = await linkUpload(sample(workDir, 'SC_rgb_small_odd.dcm', patient));
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'burned_in_text' });
    expect({ studies: await count('studies'), instances: await count('instances') }).toEqual(before);
  });

  it("refuses another account's profile, or a made-up one, on a new link, adding nothing", async () => {
    const before = await count('links');
    const partnerGroup = await server.api.namespaceOf(
      partnerAdmin,
      (await server.api.groups(partnerAdmin))[0]!.name,
    );
    for (const [sid, namespaceId, id] of [
      [partnerAdmin, partnerGroup, profile.uuid],
      [clinician, emergency, partnerProfile],
      [clinician, emergency, 'made-up'],
    ] as const) {
      const refused = await addLink(sid, namespaceId, { anonymization_id: id });
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    }
    expect(await count('links')).toBe(before);
  });
});
