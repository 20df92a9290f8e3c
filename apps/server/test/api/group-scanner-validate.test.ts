import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs } from '../../src/dicom/index.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { firstAccountOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * group/scanner/validate (SPEC.md section 7, docs/api-v3.md): would a scanner configured with this
 * calling AE title, from this address, to this called AE title, land its images in the group? The
 * answer follows the DICOM listener's own rules, proven here by sending as the scanner.
 */
describe.each(DIALECTS)('group/scanner/validate on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let admin: string;
  let clinician: string;
  let partner: string;
  let account: string;
  let groups: { uuid: string; name: string; namespace_id: string; type: string }[];
  const group = (name: string) => groups.find((g) => g.name === name)!;
  const validate = (params: Record<string, string>, sid = admin) =>
    server.api.call('group/scanner/validate', params, sid);
  const rowCounts = async () => {
    const db = server.ctx.db.kysely;
    const count = async (table: 'dicom_nodes' | 'audit_events' | 'local_ae_titles') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { nodes: await count('dicom_nodes'), local: await count('local_ae_titles') };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-scanner-'));
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    partner = await server.api.login('partner@demo.local');
    account = await firstAccountOf(server.api, admin);
    groups = await server.api.groups(admin);
    const added = await server.api.call(
      'dicom/node/add',
      {
        account_id: account,
        ae_title: 'CT_SCAN_7',
        host: '127.0.0.1',
        group_id: group('Cardiology').uuid,
        name: 'CT 7',
      },
      admin,
    );
    expect(added.body).toMatchObject({ status: 'OK', ae_title: 'CT_SCAN_7' });
  });
  afterAll(async () => {
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('says a registered scanner lands in its group, and a send as that scanner does', async () => {
    const cardiology = group('Cardiology');
    const answer = await validate({ uuid: cardiology.uuid, ae_title: 'CT_SCAN_7', host: '127.0.0.1' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'OK',
      valid: 1,
      group: { uuid: cardiology.uuid, name: 'Cardiology', type: 'CLOUD' },
      called_ae_title: 'INBOX',
      node: { ae_title: 'CT_SCAN_7', host: '127.0.0.1', name: 'CT 7', group_id: cardiology.uuid },
      problems: [],
    });
    // Without the address the sender's registered one is answered, and it is still valid.
    expect((await validate({ uuid: cardiology.uuid, ae_title: 'CT_SCAN_7' })).body).toMatchObject({
      valid: 1,
    });

    const dir = path.join(tmp, 'valid');
    const [spec] = generateStudySpecs(1, 721, { now: new Date('2026-05-01T00:00:00Z') });
    writeStudyFolder(dir, spec!);
    expect((await sendFolder(dir, server.dicomPort, 'CT_SCAN_7')).code).toBe(0);
    const stored = await server.ctx.db.kysely
      .selectFrom('studies')
      .select('namespace_id')
      .where('study_uid', '=', spec!.studyInstanceUid)
      .executeTakeFirstOrThrow();
    expect(stored.namespace_id).toBe(cardiology.namespace_id);
  });

  it('names every reason a scanner would not land in the group', async () => {
    const cases: [Record<string, string>, { field: string; reason: RegExp }[]][] = [
      // Registered, but its images go to Cardiology.
      [{ uuid: group('Emergency').uuid, ae_title: 'CT_SCAN_7' }, [{ field: 'uuid', reason: /Cardiology/ }]],
      // From another address the listener refuses the association.
      [
        { uuid: group('Cardiology').uuid, ae_title: 'CT_SCAN_7', host: '10.9.8.7' },
        [{ field: 'host', reason: /127\.0\.0\.1/ }],
      ],
      // AE titles are compared as sent.
      [
        { uuid: group('Cardiology').uuid, ae_title: 'ct_scan_7' },
        [{ field: 'ae_title', reason: /no DICOM node/ }],
      ],
      [
        { uuid: group('Cardiology').uuid, ae_title: 'NOBODY' },
        [{ field: 'ae_title', reason: /no DICOM node/ }],
      ],
      // Our own title cannot be a scanner's.
      [{ uuid: group('Cardiology').uuid, ae_title: 'INBOX' }, [{ field: 'ae_title', reason: /this server/ }]],
      // A called AE title that is not ours.
      [
        { uuid: group('Cardiology').uuid, ae_title: 'CT_SCAN_7', called_ae_title: 'ELSEWHERE' },
        [{ field: 'called_ae_title', reason: /not an AE title of this server/ }],
      ],
      // Scanners deliver only into cloud groups.
      [
        { uuid: group('PACS Intake').uuid, ae_title: 'CT_SCAN_7' },
        [
          { field: 'uuid', reason: /cloud group/ },
          { field: 'uuid', reason: /Cardiology/ },
        ],
      ],
    ];
    for (const [params, problems] of cases) {
      const answer = await validate(params);
      expect(answer.body, JSON.stringify(params)).toMatchObject({ status: 'OK', valid: 0 });
      expect(answer.body.problems, JSON.stringify(params)).toEqual(
        problems.map((p) => ({ field: p.field, reason: expect.stringMatching(p.reason) })),
      );
    }
    // The demo gateway's images go to Emergency: the answer says so.
    expect((await validate({ uuid: group('Emergency').uuid, ae_title: 'DEMO_GATEWAY' })).body).toMatchObject({
      valid: 1,
    });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const before = await rowCounts();
    const uuid = group('Cardiology').uuid;
    const refusals: [Record<string, string>, string, string][] = [
      [{ ae_title: 'CT_SCAN_7' }, 'MISSING_FIELDS', 'uuid'],
      [{ uuid }, 'MISSING_FIELDS', 'ae_title'],
      [{ uuid, ae_title: '   ' }, 'MISSING_FIELDS', 'ae_title'],
      [{ uuid, ae_title: 'A'.repeat(17) }, 'INVALID_FIELD', 'ae_title'],
      [{ uuid, ae_title: 'BACK\\SLASH' }, 'INVALID_FIELD', 'ae_title'],
      [{ uuid, ae_title: 'CT_SCAN_7', host: 'scanner.local' }, 'INVALID_FIELD', 'host'],
      [{ uuid, ae_title: 'CT_SCAN_7', host: '300.1.1.1' }, 'INVALID_FIELD', 'host'],
      [{ uuid, ae_title: 'CT_SCAN_7', called_ae_title: 'X'.repeat(20) }, 'INVALID_FIELD', 'called_ae_title'],
    ];
    for (const [params, type, subtype] of refusals) {
      const refused = await validate(params);
      expect(refused.status, JSON.stringify(params)).toBe(412);
      expect(refused.body, JSON.stringify(params)).toMatchObject({ status: 'ERROR', error_type: type });
      expect(JSON.stringify(refused.body)).toContain(subtype);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("is for the account's admins: a member, another account or a made-up group is NOT_FOUND", async () => {
    const uuid = group('Cardiology').uuid;
    for (const [params, sid] of [
      [{ uuid, ae_title: 'CT_SCAN_7' }, clinician],
      [{ uuid, ae_title: 'CT_SCAN_7' }, partner],
      [{ uuid: 'no-such-group', ae_title: 'CT_SCAN_7' }, admin],
    ] as const) {
      const refused = await validate(params, sid);
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({
        status: 'ERROR',
        error_type: 'NOT_FOUND',
        error_subtype: 'group',
      });
    }
  });
});
