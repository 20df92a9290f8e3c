import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echo } from '../../src/dimse/client/index.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import {
  arrivedIn,
  demoWorld,
  listenAsDemoArchive,
  nominate,
  NOMINATION_ANSWERS,
} from '../support/demo-world.js';
import { smallestStudyIn } from '../support/studies.js';

/**
 * The demo world goes the whole way with no outside PACS: PACS Intake sends to PACS Archive, our
 * own listener under a second AE title, whose exams land in the library group PACS Archive.
 */
describe.each(DIALECTS)('the demo PACS Archive on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let gatekeeper: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;
  let archiveDestination: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    ({ clinician, gatekeeper } = world.sid);
    groups = world.groups;
    const config = await listenAsDemoArchive(server, world);
    expect(config.destinations).toHaveLength(1);
    archiveDestination = config.destinations[0]!;
  });
  afterAll(() => server?.stop());

  it('is configured: a destination taking pushes, PACS Intake sends there, the gatekeeper sees the archive', async () => {
    const destination = await server.ctx.db.kysely
      .selectFrom('destinations')
      .selectAll()
      .where('uuid', '=', archiveDestination)
      .executeTakeFirstOrThrow();
    expect(destination).toMatchObject({ name: 'PACS Archive', aetitle: 'PACS_ARCHIVE', can_push: 1 });
    const mine = (await server.api.groups(gatekeeper)).map((g) => g.name);
    expect(mine).toEqual(expect.arrayContaining(['PACS Intake', 'PACS Archive']));
  });

  it('takes a nominated exam processed to it: it arrives in PACS Archive with the order’s attributes', async () => {
    const study = await smallestStudyIn(server.ctx.db, 'Emergency');
    const copy = await nominate(server.api, clinician, study.uuid, groups['PACS Intake']!.uuid, {
      ...NOMINATION_ANSWERS,
      'customfield-reason_for_visit': 'Transfer',
    });
    const processed = await server.api.call(
      'study/process',
      {
        uuid: copy,
        destination_id: archiveDestination,
        patient_name: 'ARCHIVED^ANNA',
        patientid: 'MRN-ARCH-1',
        accession_number: 'ACC-ARCH-1',
      },
      gatekeeper,
    );
    expect(processed.body.status, JSON.stringify(processed.body)).toBe('OK');
    const status = await until(
      () => server.api.call('study/nomination', { uuid: study.uuid }, clinician),
      (r) => ['S', 'F', 'P'].includes(r.body.nomination.push_status as string),
    );
    expect(status.body.nomination).toMatchObject({ status: 'NOMINATION_SUCCESS', push_status: 'S' });
    const arrived = await arrivedIn(server.api, gatekeeper, groups['PACS Archive']!.namespace_id, study);
    expect(arrived).toMatchObject({
      patient_name: 'ARCHIVED^ANNA',
      patientid: 'MRN-ARCH-1',
      accession_number: 'ACC-ARCH-1',
      destination_ae_title: 'PACS_ARCHIVE',
    });
  }, 120_000);

  it('refuses a caller that is neither a registered sender of the account nor this product', async () => {
    const peer = { aeTitle: 'PACS_ARCHIVE', host: '127.0.0.1', port: server.dicomPort };
    await expect(echo(peer, { callingAe: 'STRANGER' })).rejects.toThrow(/calling AE/i);
    await expect(echo({ ...peer, aeTitle: 'NOT_OURS' }, { callingAe: 'STRANGER' })).rejects.toThrow(
      /called AE/i,
    );
    await expect(echo(peer, { callingAe: server.ctx.config.dicomAet })).resolves.toBeDefined();
  });
});
