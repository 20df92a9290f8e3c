import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/** A verified, complete Basic Text SR of a study, made with dcmtk's dump2dcm. */
function structuredReport(
  dir: string,
  study: { study_uid: string; patient_name: string; patientid: string },
) {
  const dump = [
    '(0008,0016) UI [1.2.840.10008.5.1.4.1.1.88.11]',
    '(0008,0018) UI [1.2.826.0.1.3680043.2.1125.99.1]',
    '(0008,0023) DA [20261126]',
    '(0008,0033) TM [143000]',
    '(0008,0060) CS [SR]',
    `(0010,0010) PN [${study.patient_name}]`,
    `(0010,0020) LO [${study.patientid}]`,
    `(0020,000d) UI [${study.study_uid}]`,
    '(0020,000e) UI [1.2.826.0.1.3680043.2.1125.99.2]',
    '(0040,a040) CS [CONTAINER]',
    '(0040,a043) SQ',
    '(fffe,e000) -',
    '(0008,0100) SH [18748-4]',
    '(0008,0102) SH [LN]',
    '(0008,0104) LO [Diagnostic imaging report]',
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
    '(0040,a073) SQ',
    '(fffe,e000) -',
    '(0040,a075) PN [CURIE^MARIE]',
    '(0040,a030) DT [20261126143000]',
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
    '(0040,a491) CS [COMPLETE]',
    '(0040,a493) CS [VERIFIED]',
    '(0040,a730) SQ',
    '(fffe,e000) -',
    '(0040,a010) CS [CONTAINS]',
    '(0040,a040) CS [TEXT]',
    '(0040,a160) UT [No acute findings.]',
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'sr.dump'), dump);
  execFileSync('dump2dcm', ['-q', '+te', path.join(dir, 'sr.dump'), path.join(dir, 'sr.dcm')]);
  return fs.readFileSync(path.join(dir, 'sr.dcm'));
}

describe.each(DIALECTS)('study/report/list on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let partner: string;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-reports-'));
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    partner = await server.api.login('partner@demo.local');
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the SR stored in a study and the HL7 results of its accession number, newest first', async () => {
    const emergency = await server.api.namespaceOf(clinician, 'Emergency');
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'patient_name', 'patientid', 'accession_number', 'account_id'])
      .where('namespace_id', '=', emergency)
      .where('accession_number', '!=', '')
      .executeTakeFirstOrThrow();
    expect((await server.api.call('study/report/list', { uuid: study.uuid }, clinician)).body).toEqual({
      status: 'OK',
      reports: [],
      page: { number: 1, rows: 5000, more: 0 },
    });

    const upload = await server.api.upload(clinician, emergency, structuredReport(dir, study));
    expect(upload.status).toBeLessThan(300);
    const ack = await server.ctx.services.hl7.handle(
      Buffer.from(
        [
          'MSH|^~\\&|RIS|HOSP|INBOX|demo|20261127101500||ORU^R01|R-1|P|2.3',
          `OBR|1||F-1|CT^CT HEAD||||||||||||||${study.accession_number}||||20261127090000|||P`,
          'OBX|1|TX|REPORT||Preliminary: no bleed.||||||P',
        ].join('\r'),
      ),
      // Demo Hospital's registered HL7 sender (decision 0056).
      '127.0.0.1',
    );
    expect(ack).toContain('MSA|AA|R-1');

    const listed = await server.api.call('study/report/list', { uuid: study.uuid }, viewer);
    expect(listed.body.reports).toEqual([
      {
        id: expect.any(String),
        kind: 'HL7',
        status: 'Preliminary',
        author: '',
        time: Date.UTC(2026, 10, 27, 9, 0, 0),
        title: 'CT HEAD',
        text: 'Preliminary: no bleed.',
        series_uid: null,
      },
      {
        id: '1.2.826.0.1.3680043.2.1125.99.1',
        kind: 'SR',
        status: 'Final',
        author: 'MARIE CURIE',
        time: Date.UTC(2026, 10, 26, 14, 30, 0),
        title: 'Diagnostic imaging report',
        text: 'No acute findings.',
        series_uid: '1.2.826.0.1.3680043.2.1125.99.2',
      },
    ]);

    // Outside the study's account: as a made-up study.
    const refused = await server.api.call('study/report/list', { uuid: study.uuid }, partner);
    expect(refused.body).toMatchObject({ error_type: 'NOT_FOUND' });
    const missing = await server.api.call('study/report/list', {}, clinician);
    expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
  });
});
