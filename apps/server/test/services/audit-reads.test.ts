import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { AuditRepository } from '../../src/audit/audit.repository.js';
import { AuditService, READ_AUDIT_WINDOW_MS } from '../../src/audit/audit.service.js';
import type { AuditEntry } from '../../src/audit/audit.service.js';

/** Repeated reads within a minute are one audit event (SQLite file; the rule is in the service). */
describe('AuditService.recordRead', () => {
  let dir: string;
  let db: Db;
  let clock = 1_800_000_000_000;
  let audit: AuditService;
  const read = (over: Partial<AuditEntry> = {}): AuditEntry => ({
    userId: 'user-1',
    accountId: 'account-1',
    action: 'STUDY_VIEW',
    objectType: 'study',
    objectId: 'study-1',
    detail: { via: 'wado-rs frames' },
    ip: '10.0.0.1',
    ...over,
  });
  const events = async () =>
    (await db.kysely.selectFrom('audit_events').select(['user_id', 'object_id', 'detail', 'at']).execute())
      .length;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-audit-'));
    db = openDatabase({ dataDir: dir });
    await migrateToLatest(db);
    audit = new AuditService(new AuditRepository(db.kysely), () => clock);
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records the first read and not its repeats within the window, parallel ones included', async () => {
    await Promise.all([audit.recordRead(read()), audit.recordRead(read()), audit.recordRead(read())]);
    clock += READ_AUDIT_WINDOW_MS - 1;
    await audit.recordRead(read());
    expect(await events()).toBe(1);
  });

  it('records again once the window has passed since the last recorded read', async () => {
    clock += 2;
    await audit.recordRead(read());
    expect(await events()).toBe(2);
  });

  it('keeps reads apart by user, study, route and address', async () => {
    await audit.recordRead(read({ userId: 'user-2' }));
    await audit.recordRead(read({ objectId: 'study-2' }));
    await audit.recordRead(read({ detail: { via: 'wado-rs metadata' } }));
    await audit.recordRead(read({ ip: '10.0.0.2' }));
    expect(await events()).toBe(6);
  });

  it('records every change, however often (record is not coalesced)', async () => {
    await audit.record(read({ action: 'EDIT' }));
    await audit.record(read({ action: 'EDIT' }));
    expect(await events()).toBe(8);
  });
});
