import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const DAY = 86_400_000;

describe.each(DIALECTS)('study delete, restore and purge on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let emergency: { uuid: string; study_uid: string; namespace_id: string; account_id: string }[];
  let intake: { uuid: string };
  let cardiologyNs: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    const db = server.ctx.db.kysely;
    const inGroup = (name: string) =>
      db
        .selectFrom('studies')
        .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
        .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id', 'studies.account_id'])
        .where('groups.name', '=', name)
        .orderBy('studies.uuid')
        .execute();
    emergency = await inGroup('Emergency');
    intake = (await inGroup('PACS Intake'))[0]!;
    cardiologyNs = (
      await db
        .selectFrom('groups')
        .select('namespace_id')
        .where('name', '=', 'Cardiology')
        .executeTakeFirstOrThrow()
    ).namespace_id;
  });
  afterAll(() => server?.stop());

  const deletedOf = async (uuid: string) =>
    (
      await server.ctx.db.kysely
        .selectFrom('studies')
        .select('deleted')
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow()
    ).deleted;

  const bundle = async (items: object[]) => {
    const response = await fetch(`${server.url}/api/v3/bundle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items),
    });
    return (await response.json()) as { status: string; error_type?: string }[];
  };

  it('deletes through bundle, answering per item so the inbox can count succeeded and failed', async () => {
    const [a, b] = emergency;
    const answers = await bundle([
      { URL: '/study/delete', sid: clinician, uuid: a!.uuid },
      { URL: '/study/delete', sid: clinician, phi_namespace: b!.namespace_id, study_uid: b!.study_uid },
      { URL: '/study/delete', sid: clinician, uuid: intake.uuid },
      { URL: '/study/delete', sid: clinician },
      { URL: '/study/delete', sid: viewer, uuid: emergency[2]!.uuid },
    ]);
    expect(answers.map((r) => r.error_type ?? r.status)).toEqual([
      'OK',
      'OK',
      'NOT_FOUND',
      'MISSING_FIELDS',
      'NOT_PERMITTED',
    ]);
    expect(await deletedOf(a!.uuid)).not.toBeNull();
    expect(await deletedOf(b!.uuid)).not.toBeNull();
    expect(await deletedOf(intake.uuid)).toBeNull();
    expect(await deletedOf(emergency[2]!.uuid)).toBeNull();

    // Deleted items lists them; the inbox no longer does.
    const trash = await server.api.call(
      'study/list',
      { 'filter.deleted.equals': 1, 'page.rows': 100 },
      clinician,
    );
    const inTrash = trash.body.studies.map((s: { uuid: string }) => s.uuid);
    expect(inTrash).toEqual(expect.arrayContaining([a!.uuid, b!.uuid]));
    const inbox = await server.api.call('study/list', { 'page.rows': 100 }, clinician);
    expect(inbox.body.studies.map((s: { uuid: string }) => s.uuid)).not.toContain(a!.uuid);

    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['object_id'])
      .where('action', '=', 'DELETE')
      .where('object_type', '=', 'study')
      .execute();
    expect(events.map((e) => e.object_id).sort()).toEqual([a!.uuid, b!.uuid].sort());
  });

  it('deleting again changes nothing; restore brings the study back and shows as an edit', async () => {
    const a = emergency[0]!;
    const at = await deletedOf(a.uuid);
    expect((await server.api.call('study/delete', { uuid: a.uuid }, clinician)).body.status).toBe('OK');
    expect(await deletedOf(a.uuid)).toBe(at);

    const denied = await server.api.call('study/restore', { uuid: a.uuid }, viewer);
    expect(denied.body.error_type).toBe('NOT_PERMITTED');
    expect(await deletedOf(a.uuid)).not.toBeNull();

    expect((await server.api.call('study/restore', { uuid: a.uuid }, clinician)).body.status).toBe('OK');
    expect(await deletedOf(a.uuid)).toBeNull();
    const edit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'EDIT')
      .where('object_id', '=', a.uuid)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(edit.detail!)).toMatchObject({ restored: true, after: { deleted: null } });
    expect((await server.api.call('study/restore', {}, clinician)).body.error_type).toBe('MISSING_FIELDS');
  });

  it('purges studies past the account retention, keeping blobs other studies still use', async () => {
    const db = server.ctx.db.kysely;
    const [, old, recent] = emergency;
    const accountId = old!.account_id;
    await server.ctx.repos.settings.set(`account:${accountId}`, 'deleted_retention_days', '7');
    await db
      .updateTable('studies')
      .set({ deleted: Date.now() - 8 * DAY })
      .where('uuid', '=', old!.uuid)
      .execute();
    await db
      .updateTable('studies')
      .set({ deleted: Date.now() - 6 * DAY })
      .where('uuid', '=', recent!.uuid)
      .execute();

    const oldFiles = await db
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', old!.uuid)
      .execute();
    // The same bytes stored into Cardiology too: one content-addressed blob, two references.
    const sharedKey = oldFiles[0]!.blob_key;
    const temp = await server.ctx.services.blobs.writeTemp(await server.ctx.services.blobs.read(sharedKey));
    await server.ctx.services.ingest.ingestTemp(
      temp,
      { accountId, namespaceId: cardiologyNs },
      { kind: 'upload', userId: null },
    );

    const result = await server.ctx.services.purge.purge();
    expect(result.studies).toBe(1);
    expect(result.files).toBe(new Set(oldFiles.map((f) => f.blob_key)).size - 1);

    expect(
      await db.selectFrom('studies').select('uuid').where('uuid', '=', old!.uuid).executeTakeFirst(),
    ).toBeUndefined();
    for (const table of [
      'instances',
      'series',
      'study_tags',
      'study_modalities',
      'study_customfields',
    ] as const) {
      const left = await db
        .selectFrom(table)
        .select('study_uuid')
        .where('study_uuid', '=', old!.uuid)
        .execute();
      expect({ table, left: left.length }).toEqual({ table, left: 0 });
    }
    for (const { blob_key } of oldFiles) {
      const exists = await server.ctx.services.blobs.exists(blob_key);
      expect({ blob_key, exists }).toEqual({ blob_key, exists: blob_key === sharedKey });
    }
    expect(await deletedOf(recent!.uuid)).not.toBeNull();
    const purgeEvents = await db
      .selectFrom('audit_events')
      .select('object_id')
      .where('action', '=', 'PURGE')
      .execute();
    expect(purgeEvents.map((e) => e.object_id)).toEqual([old!.uuid]);

    // A second run finds nothing more to do.
    expect(await server.ctx.services.purge.purge()).toEqual({ studies: 0, files: 0 });
  });

  it('falls back to 30 days for a missing or invalid retention setting', async () => {
    const accountId = emergency[0]!.account_id;
    await server.ctx.repos.settings.set(`account:${accountId}`, 'deleted_retention_days', 'soon');
    expect(await server.ctx.services.purge.retentionDays(accountId)).toBe(30);
  });
});
