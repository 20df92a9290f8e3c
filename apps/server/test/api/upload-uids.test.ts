/**
 * The UIDs the server mints for an upload that carries none (a wrapped PDF or picture, decision
 * 0058): unique within one upload and across uploads, the same again when the same file is sent
 * again into its study (a retry after a lost answer stores no second copy), and recognisably ours,
 * so a wrapped file never joins a study another system named under the same `2.25` arc.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstance } from '../../src/dicom/index.js';
import { isOurUid, isValidUid } from '../../src/dicom/uid.js';
import { baseSpec } from '../dicom/support.js';
import { greyJpeg, minimalPdf, rgbPng, wrapBody, type Upload } from '../support/non-dicom.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { ingestState } from '../support/ingest-state.js';

const FORM = {
  firstName: 'Una',
  lastName: 'Ides',
  patientDOB: '1979-11-02',
  patientMRN: 'MRN-UID-1',
  patientGender: 'F',
  studyDate: '2026-04-01',
  studyTime: '10:30',
  studyDescription: 'Outside documents',
};

/** A `2.25` UID as any other system makes one: a random 128-bit integer, no mark of ours. */
const foreignUid = () => `2.25.${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(10)}`;

describe.each(DIALECTS)('UIDs minted for uploads on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;

  const wrap = async (form: Record<string, string>, files: Upload[]) => {
    const response = await fetch(`${server.url}/api/v3/storage/namespace/${emergency}/wrap?sid=${sid}`, {
      method: 'POST',
      body: wrapBody(form, files),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const uidsOf = (answer: any): string[] => [
    answer.study_uid,
    ...answer.instances.flatMap((i: any) => [i.series_uid, i.sop_instance_uid]),
  ];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
  });
  afterAll(() => server?.stop());

  it('gives one upload UIDs that are unique, valid and ours, and another upload others', async () => {
    const files: Upload[] = [
      { name: 'letter.pdf', bytes: minimalPdf('Referral letter'), type: 'application/pdf' },
      { name: 'wound.jpg', bytes: await greyJpeg(24, 16) },
      { name: 'chart.png', bytes: rgbPng(12, 9), type: 'image/png' },
    ];
    const first = await wrap(FORM, files);
    expect(first.status).toBe(202);
    const uids = uidsOf(first.body);
    expect(uids).toHaveLength(7);
    expect(new Set(uids).size).toBe(7);
    for (const uid of uids) {
      expect(isValidUid(uid), uid).toBe(true);
      expect(isOurUid(uid), uid).toBe(true);
    }
    // The same files as a new upload (no study named): a new study, so every UID differs.
    const second = await wrap(FORM, files);
    expect(second.status).toBe(202);
    expect(uidsOf(second.body).filter((uid) => uids.includes(uid))).toEqual([]);
  });

  it('mints the same UIDs for the same file sent again into its study, so a retry stores no second copy', async () => {
    const pdf: Upload = {
      name: 'report.pdf',
      bytes: minimalPdf('Discharge report'),
      type: 'application/pdf',
    };
    const first = await wrap(FORM, [pdf]);
    expect(first.status).toBe(202);
    const [sent] = first.body.instances;
    const before = await ingestState(server);

    // The wizard's retry (or its next file) names the study the first call made.
    const again = await wrap({ ...FORM, study_uid: first.body.study_uid }, [
      pdf,
      { name: 'photo.png', bytes: rgbPng(10, 10), type: 'image/png' },
    ]);
    expect(again.status).toBe(202);
    expect(again.body.study_uuid).toBe(first.body.study_uuid);
    const [retried, added] = again.body.instances;
    expect([retried.sop_instance_uid, retried.series_uid, retried.duplicate]).toEqual([
      sent.sop_instance_uid,
      sent.series_uid,
      true,
    ]);
    expect(added.duplicate).toBe(false);
    expect(uidsOf(again.body).filter((uid) => isOurUid(uid))).toHaveLength(5);
    expect(new Set([sent.sop_instance_uid, added.sop_instance_uid]).size).toBe(2);

    const study = await server.api.get('study/get', { sid, uuid: first.body.study_uuid });
    expect(study.body.image_count).toBe(2);
    const after = await ingestState(server);
    expect(after.instances - before.instances).toBe(1);
  });

  it("adds files only to a study of our own minting, never to another system's 2.25 study", async () => {
    // A modality's study for the same patient, whose UID happens to use the 2.25 arc too.
    const studyUid = foreignUid();
    const modality = await server.api.upload(
      sid,
      emergency,
      buildInstance(
        baseSpec({
          patientName: 'Ides^Una',
          patientId: FORM.patientMRN,
          studyInstanceUid: studyUid,
          seriesInstanceUid: `${studyUid}.1`,
          sopInstanceUid: `${studyUid}.1.1`,
        }),
      ),
    );
    expect(modality.status).toBe(202);
    const before = await ingestState(server);
    const joined = await wrap({ ...FORM, study_uid: studyUid }, [
      { name: 'note.pdf', bytes: minimalPdf('Note'), type: 'application/pdf' },
    ]);
    expect(joined.status).toBe(412);
    expect(joined.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'study_uid' });
    expect(await ingestState(server)).toEqual(before);
  });
});
