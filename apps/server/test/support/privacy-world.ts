import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dcmjs from 'dcmjs';
import { afterAll, beforeAll } from 'vitest';
import type { Answer, Dialect, TestServer } from './test-server.js';
import { startTestServer } from './test-server.js';

export const PYDICOM_TEST_FILES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/** Whose a sample file is made to be: one patient's name and ID, one study UID. */
export interface SamplePatient {
  uid: string;
  patient: string;
  id: string;
}

export interface WorldGroup {
  uuid: string;
  name: string;
  namespace_id: string;
  type: string;
}

/**
 * What every de-identification path test starts from (issue 33): the demo world on a real server,
 * signed in as the demo account's admin and clinician and the partner account's admin, both
 * accounts' ids, the demo account's groups by name, a profile of the partner account (which the demo
 * account must never be able to name), and a directory for the files made for the test.
 */
export interface PrivacyWorld {
  server: TestServer;
  admin: string;
  clinician: string;
  partnerAdmin: string;
  account: string;
  partnerAccount: string;
  groups: Record<string, WorldGroup>;
  partnerProfile: string;
  workDir: string;
  /** An api/v3 call as `sid` (none: anonymous). */
  call: (name: string, params: Record<string, string | number>, sid?: string) => Promise<Answer>;
  /** A profile of the demo account, added by its admin. */
  addProfile: (
    name: string,
    fields?: Record<string, string | number>,
  ) => Promise<{ uuid: string; name: string }>;
  /** A pydicom sample given the patient's name, ID and study UID (dcmtk's dcmodify on a copy). */
  sample: (file: string, patient: SamplePatient) => Buffer;
  /** How many rows a table holds now, to show a refusal added nothing. */
  count: (table: 'links' | 'studies' | 'instances' | 'routing_rules' | 'study_pushes') => Promise<number>;
}

/**
 * Starts the world before the file's tests (on `dialect`, with `env` added to the server's) and
 * stops it after; its fields are set once `beforeAll` ran, so tests read them off the answer.
 */
export function usePrivacyWorld(dialect: Dialect, env: Record<string, string> = {}): PrivacyWorld {
  const world = {
    call: (name, params, sid) => world.server.api.call(name, params, sid),
    addProfile: async (name, fields = {}) =>
      (await world.call('anonymization/add', { account_id: world.account, name, ...fields }, world.admin))
        .body as { uuid: string; name: string },
    sample: (file, patient) => {
      const copy = path.join(world.workDir, `${patient.uid}-${file}`);
      fs.copyFileSync(path.join(PYDICOM_TEST_FILES, file), copy);
      execFileSync('dcmodify', [
        '-nb',
        '-m',
        `(0020,000d)=${patient.uid}`,
        '-m',
        `(0010,0010)=${patient.patient}`,
        '-m',
        `(0010,0020)=${patient.id}`,
        copy,
      ]);
      return fs.readFileSync(copy);
    },
    count: async (table) =>
      Number(
        (
          await world.server.ctx.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  } as PrivacyWorld;

  beforeAll(async () => {
    world.server = await startTestServer(dialect, env);
    world.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'privacy-world-'));
    world.admin = await world.server.api.login('admin@demo.local');
    world.clinician = await world.server.api.login('clinician@demo.local');
    world.partnerAdmin = await world.server.api.login('partner@demo.local');
    const accounts = await world.server.ctx.db.kysely
      .selectFrom('accounts')
      .select(['uuid', 'vanity'])
      .execute();
    world.account = accounts.find((a) => a.vanity === 'demo')!.uuid;
    world.partnerAccount = accounts.find((a) => a.vanity === 'partner')!.uuid;
    world.groups = Object.fromEntries((await world.server.api.groups(world.admin)).map((g) => [g.name, g]));
    world.partnerProfile = (
      await world.call(
        'anonymization/add',
        { account_id: world.partnerAccount, name: 'Partner profile' },
        world.partnerAdmin,
      )
    ).body.uuid as string;
  }, 120_000);

  afterAll(async () => {
    await world.server?.stop();
    if (world.workDir) fs.rmSync(world.workDir, { recursive: true, force: true });
  });

  return world;
}

/** The identifying values of a file (4+ characters): patient name and its parts, IDs, accession, UIDs. */
export function identifyingValues(bytes: Uint8Array): string[] {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const dict = dcmjs.data.DicomMessage.readFile(buffer as ArrayBuffer).dict;
  const values: string[] = [];
  for (const tag of ['00100010', '00100020', '0020000D', '0020000E', '00080018', '00080050']) {
    for (const v of dict[tag]?.Value ?? []) {
      const text =
        typeof v === 'object' && v !== null
          ? String((v as { Alphabetic?: string }).Alphabetic ?? '')
          : String(v);
      for (const part of [text, ...text.split('^')]) if (part.trim().length >= 4) values.push(part.trim());
    }
  }
  return values;
}
