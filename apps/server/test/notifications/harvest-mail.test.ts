import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { setMailEvents } from '../support/mail-events.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

// Long enough that the two associations of one study fall within it, even on a busy machine.
const QUIET_MS = 1500;

describe.each(DIALECTS)('"harvested from gateway" mails after C-STORE on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let ns: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0', HARVEST_MAIL_QUIET_MS: String(QUIET_MS) });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-harvest-'));
    ns = Object.fromEntries(
      (await server.ctx.db.kysely.selectFrom('namespaces').select(['id', 'name']).execute()).map((n) => [
        n.name,
        n.id,
      ]),
    );
  });
  afterAll(async () => {
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const set = async (email: string, namespace: string, flags: Record<string, number>) =>
    setMailEvents(server.api, await server.api.login(email), ns[namespace]!, flags);
  const mails = () =>
    server.ctx.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('subject', 'like', 'New exam received%')
      .orderBy('id')
      .execute();
  /** Waits until no harvest mail is pending any more (each study has been quiet and mailed). */
  const settled = async () => {
    const db = server.ctx.db.kysely;
    for (let i = 0; i < 100; i++) {
      const pending = await db.selectFrom('harvest_notices').select('study_uuid').execute();
      if (pending.length === 0) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('harvest mails still pending');
  };
  const send = async (dir: string) => {
    const sent = await sendFolder(dir, server.dicomPort);
    expect(sent.code, sent.output).toBe(0);
  };

  it('mails opted-in members of the receiving group once per study, and nobody else', async () => {
    // Clinician: harvest on in Emergency (the gateway's group). Admin: turned on, then off again.
    // Viewer: member of Emergency, never opted in. Gatekeeper: opted in for another group only.
    await set('clinician@demo.local', 'Emergency', { event_harvest: 1 });
    await set('admin@demo.local', 'Emergency', { event_harvest: 1 });
    await set('admin@demo.local', 'Emergency', { event_harvest: 0 });
    await set('gatekeeper@demo.local', 'PACS Intake', { event_harvest: 1 });

    const specs = generateStudySpecs(2, 4242, { now: new Date('2026-05-01T00:00:00Z') });
    const [first, second] = specs.map((spec) => writeStudyFiles(spec));
    expect(first!.length).toBeGreaterThan(1);
    // The first study arrives over two associations, the second study with the second one.
    const half = Math.ceil(first!.length / 2);
    const dirA = path.join(tmp, 'a');
    const dirB = path.join(tmp, 'b');
    fs.mkdirSync(dirA);
    fs.mkdirSync(dirB);
    for (const f of first!.slice(0, half))
      fs.writeFileSync(path.join(dirA, `${f.sopInstanceUid}.dcm`), f.bytes);
    for (const f of [...first!.slice(half), ...second!])
      fs.writeFileSync(path.join(dirB, `${f.sopInstanceUid}.dcm`), f.bytes);
    await send(dirA);
    await send(dirB);
    await settled();

    const sent = await mails();
    expect(sent.map((m) => m.to_address)).toEqual(['clinician@demo.local', 'clinician@demo.local']);
    const studies = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'image_count'])
      .where('namespace_id', '=', ns['Emergency']!)
      .execute();
    expect(studies).toHaveLength(2);
    for (const study of studies) {
      const mail = sent.find((m) => m.body.includes(study.uuid));
      expect(mail?.subject).toBe('New exam received in Emergency');
      expect(mail?.body).toContain(`Images: ${study.image_count}.`);
      expect(mail?.body).toContain('Demo gateway (DEMO_GATEWAY)');
    }
    // No patient details travel by mail.
    for (const spec of specs) {
      for (const mail of sent) {
        const text = `${mail.subject}\n${mail.body}`;
        for (const phi of [
          spec.patientId,
          spec.accessionNumber,
          spec.patientBirthDate,
          ...spec.patientName.split('^'),
        ])
          if (phi) expect(text).not.toContain(phi);
      }
    }

    // Sending the same study again stores nothing new and mails nobody.
    await send(dirB);
    await new Promise((r) => setTimeout(r, QUIET_MS * 2));
    await settled();
    expect(await mails()).toHaveLength(2);
  });

  it('mails nobody once the member has opted out', async () => {
    await set('clinician@demo.local', 'Emergency', { event_harvest: 0 });
    const dir = path.join(tmp, 'c');
    writeStudyFolder(dir, ...generateStudySpecs(1, 777, { now: new Date('2026-05-02T00:00:00Z') }));
    await send(dir);
    await settled();
    expect(await mails()).toHaveLength(2);
  });
});
