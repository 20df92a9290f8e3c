/**
 * Documents through a request-study link: the outside party sends PDF and image files with the
 * patient and exam form, and the wizard's wrap service stores them as one new study of the link's
 * group, marked as the link's; dead grants, wrong files, form errors and a group without wrapping
 * are refused and store nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@imaging-inbox/contract';
import { minimalPdf, rgbPng, wrapBody } from '../support/non-dicom.js';
import type { Upload } from '../support/non-dicom.js';
import type { Answer, TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { ingestState } from '../support/ingest-state.js';

const PDF_CLASS = '1.2.840.10008.5.1.4.1.1.104.1';
const SC_CLASS = '1.2.840.10008.5.1.4.1.1.7';

const FORM = {
  firstName: 'Ola',
  middleName: '',
  lastName: 'Nordmann',
  patientDOB: '1970-01-31',
  patientMRN: 'MRN-LINK-DOC-1',
  patientGender: 'M',
  studyDate: '2026-04-02',
  studyTime: '09:30',
  studyDescription: 'Referral letter',
};

describe.each(DIALECTS)('documents through a request-study link on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  let account: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { UPLOAD_MAX_BYTES: String(256 * 1024) });
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
    const group = (await server.api.groups(sid)).find((g) => g.namespace_id === emergency)!;
    account = (group as unknown as { account_id: string }).account_id;
  });
  afterAll(() => server?.stop());

  /** A link of the clinician's Emergency group and its token, read from the mail as a recipient does. */
  const createLink = async (params: Record<string, string | number> = {}) => {
    const email = `doc-${Math.random().toString(36).slice(2, 8)}@clinic.example`;
    const added = await server.api.call(
      'link/add',
      {
        namespace_id: emergency,
        action: 'STUDY_UPLOAD',
        email,
        max_hits: 2,
        minutes_alive: 60,
        notify: 1,
        ...params,
      },
      sid,
    );
    expect(added.status).toBe(200);
    const mail = await server.ctx.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    return { uuid: added.body.uuid as string, token: /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body)![1]! };
  };

  const unlock = async (token: string): Promise<string> => {
    const opened = await server.api.call('link/public/unlock', { token });
    expect(opened.status).toBe(200);
    return opened.body.grant as string;
  };

  const wrap = async (
    grant: string | null,
    form: Record<string, string>,
    files: Upload[],
  ): Promise<Answer> => {
    const body = wrapBody(form, files);
    const response = await fetch(`${server.url}/api/v3/link/public/wrap`, {
      method: 'POST',
      headers: grant === null ? {} : { 'x-link-grant': grant },
      body,
    });
    return { status: response.status, body: await response.json() };
  };

  const hitsOf = async (uuid: string) =>
    (
      await server.ctx.db.kysely
        .selectFrom('links')
        .select('hits')
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow()
    ).hits;

  /** What a refused call must not change: rows, ingest audit events, stored and temp files. */
  const counts = () => ingestState(server);

  it('wraps the documents into one new study of the link group per submission, marked as the link', async () => {
    const { uuid, token } = await createLink();
    const info = await server.api.get('link/public/info', { token });
    expect(info.body).toMatchObject({ status: 'OK', namespace_name: 'Emergency', accepts_documents: true });

    const grant = await unlock(token);
    const files: Upload[] = [
      { name: 'letter.pdf', bytes: minimalPdf('Referral for Ola Nordmann'), type: 'application/pdf' },
      { name: 'photo.png', bytes: rgbPng(16, 12), type: 'image/png' },
    ];
    const answer = await wrap(grant, FORM, files);
    expect(answer.status).toBe(202);
    expect(answer.body.instances.map((i: any) => [i.filename, i.kind, i.sop_class_uid])).toEqual([
      ['letter.pdf', 'pdf', PDF_CLASS],
      ['photo.png', 'png', SC_CLASS],
    ]);

    // The requester finds it in the link's group with the form's patient and source AE LINK.
    const study = await server.api.get('study/get', { sid, uuid: answer.body.study_uuid });
    expect(study.body).toMatchObject({
      study_uid: answer.body.study_uid,
      phi_namespace: emergency,
      patient_name: 'Nordmann^Ola',
      patientid: 'MRN-LINK-DOC-1',
      study_date: '20260402',
      study_description: 'Referral letter',
      image_count: 2,
      source_ae_title: 'LINK',
    });
    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'user_id', 'detail'])
      .where('object_id', '=', answer.body.study_uuid)
      .where('action', 'in', ['CREATE', 'IMAGE_ADD'])
      .execute();
    const details = events.map((e) => (typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail));
    expect(events.map((e) => e.user_id)).toEqual([null, null]);
    expect(details.map((d) => [d.source, d.link_id]).sort()).toEqual([
      ['link', uuid],
      ['link', uuid],
    ]);

    // A second submission through the same grant is another study; the grant counted its one hit.
    const again = await wrap(grant, { ...FORM, studyDescription: 'Second letter' }, [files[0]!]);
    expect(again.status).toBe(202);
    expect(again.body.study_uid).not.toBe(answer.body.study_uid);
    expect(await hitsOf(uuid)).toBe(1);
    const notices = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('subject')
      .where('to_address', '=', 'clinician@demo.local')
      .where('subject', 'like', '%was used%')
      .execute();
    expect(notices.length).toBeGreaterThanOrEqual(1);
    expect(new Set(notices.map((n) => n.subject)).size).toBe(notices.length);
  });

  it('refuses missing and dead grants, wrong files, form errors and a study_uid, storing nothing', async () => {
    const { uuid, token } = await createLink();
    const grant = await unlock(token);
    const pdf = { name: 'r.pdf', bytes: minimalPdf('x') };
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const earlier = await wrap(grant, FORM, [pdf]);
    expect(earlier.status).toBe(202);

    const before = await counts();
    const cases: [string, string | null, Record<string, string>, Upload[], number, string, string | null][] =
      [
        ['no grant', null, FORM, [pdf], 412, 'NO_LINK_ERROR', null],
        ['forged grant', 'forged-grant', FORM, [pdf], 412, 'NO_LINK_ERROR', null],
        [
          'future study date',
          grant,
          { ...FORM, studyDate: future },
          [pdf],
          412,
          'INVALID_FIELD',
          'studyDate',
        ],
        ['no last name', grant, { ...FORM, lastName: '' }, [pdf], 412, 'MISSING_FIELDS', 'lastName'],
        [
          'text file',
          grant,
          FORM,
          [pdf, { name: 'notes.txt', bytes: new TextEncoder().encode('hello') }],
          412,
          'INVALID_FILE_TYPE',
          'notes.txt',
        ],
        ['no file', grant, FORM, [], 412, 'MISSING_FIELDS', 'file'],
        [
          'oversized',
          grant,
          FORM,
          [{ name: 'big.pdf', bytes: new Uint8Array(300 * 1024) }],
          413,
          'FILE_TOO_LARGE',
          null,
        ],
        [
          'into an existing study',
          grant,
          { ...FORM, study_uid: earlier.body.study_uid },
          [pdf],
          412,
          'INVALID_FIELD',
          'study_uid',
        ],
      ];
    for (const [name, key, form, files, status, errorType, subtype] of cases) {
      const answer = await wrap(key, form, files);
      expect(answer.status, name).toBe(status);
      expect(answer.body.error_type, name).toBe(errorType);
      if (subtype) expect(answer.body.error_subtype, name).toBe(subtype);
      if (name === 'future study date') {
        expect(Object.values(answer.body.error_data as object)).toContain(MESSAGES.formStudyDateFuture);
      }
    }

    // An expired or revoked link stops its open grant, with the same answer as an unknown one.
    await server.ctx.db.kysely
      .updateTable('links')
      .set({ expires: Date.now() - 1000 })
      .where('uuid', '=', uuid)
      .execute();
    expect((await wrap(grant, FORM, [pdf])).body.error_type).toBe('NO_LINK_ERROR');
    const revoked = await createLink();
    const revokedGrant = await unlock(revoked.token);
    expect((await server.api.call('link/delete', { uuid: revoked.uuid }, sid)).status).toBe(200);
    expect((await wrap(revokedGrant, FORM, [pdf])).body.error_type).toBe('NO_LINK_ERROR');

    expect(await counts()).toEqual({ ...before, temps: 0 });
  });

  it('follows the account setting: no documents where wrapping is off', async () => {
    const { token } = await createLink();
    const grant = await unlock(token);
    await server.ctx.repos.settings.set(`account:${account}`, 'enable_dicom_wrapping', '0');
    try {
      const info = await server.api.get('link/public/info', { token });
      expect(info.body.accepts_documents).toBe(false);
      const before = await counts();
      const refused = await wrap(grant, FORM, [{ name: 'r.pdf', bytes: minimalPdf('x') }]);
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'enable_dicom_wrapping',
      });
      expect(await counts()).toEqual(before);
    } finally {
      await server.ctx.repos.settings.set(`account:${account}`, 'enable_dicom_wrapping', '1');
    }
  });
});
