import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudySpec } from '../../../src/dicom/generate.js';
import { buildInstance } from '../../../src/dicom/write.js';
import {
  EXPLICIT_LE,
  fileStoreSource,
  moveContexts,
  openAssociation,
  storageContexts,
} from '../../../src/dimse/client/index.js';
import type { MoveProgress, Peer, StoreSource } from '../../../src/dimse/client/index.js';
import { freshCorpusCopy } from '../../support/corpus.js';
import { createNetworkNamespace } from '../../support/netns.js';
import type { NetworkNamespace } from '../../support/netns.js';
import { forwardIntoNamespace } from '../../support/netns-forward.js';
import type { Forward } from '../../support/netns-forward.js';
import { startOrthanc } from '../../support/orthanc.js';
import type { Orthanc } from '../../support/orthanc.js';
import { INBOX_AE, studyWithSeries, writeStudy } from './support.js';

/**
 * C-MOVE and C-STORE with Orthanc as the PACS: a multi-series study moved to a dcmtk storescp
 * (pending counts as they come), an unknown destination, streaming C-STORE of a JPEG 2000 file kept
 * in JPEG 2000 (its dataset byte-identical in Orthanc), RLE (refused by this Orthanc) falling back
 * to Explicit VR Little Endian, several instances on one association, and Orthanc killed mid-store.
 */
const STORESCP_PORT = 11113;

/** The dataset of a Part-10 file: what follows its meta group. */
function datasetOf(file: Buffer): Buffer {
  let offset = 132;
  while (file.readUInt16LE(offset) === 0x0002) {
    const vr = file.toString('latin1', offset + 4, offset + 6);
    offset += ['OB', 'OW', 'UN', 'SQ', 'UT'].includes(vr)
      ? 12 + file.readUInt32LE(offset + 8)
      : 8 + file.readUInt16LE(offset + 6);
  }
  return file.subarray(offset);
}

describe('DICOM client C-MOVE and C-STORE against Orthanc', () => {
  let ns: NetworkNamespace;
  let workDir: string;
  let forward: Forward;
  let peer: Peer;
  let orthanc: Orthanc;
  let study: StudySpec;
  let studyFiles: string[];
  let received: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-scu-move-'));
    ns = await createNetworkNamespace();
    orthanc = await startOrthanc(ns, workDir, {
      modalities: {
        INBOX: [INBOX_AE, '127.0.0.1', 11112],
        STORESCP: ['STORESCP', '127.0.0.1', STORESCP_PORT],
      },
      // Asynchronous C-MOVE: Orthanc then sends pending responses with sub-operation counts.
      config: { SynchronousCMove: false, RleTransferSyntaxAccepted: false },
    });
    received = path.join(workDir, 'received');
    fs.mkdirSync(received);
    ns.start('storescp', ['-aet', 'STORESCP', '+xa', '-od', received, String(STORESCP_PORT)], {
      TCP_NODELAY: '1',
    });
    forward = await forwardIntoNamespace(ns, orthanc.dicomPort);
    peer = { host: '127.0.0.1', port: forward.port, aeTitle: orthanc.aeTitle };
    study = studyWithSeries(21, 3);
    studyFiles = writeStudy(path.join(workDir, 'study'), study, { rows: 32, columns: 32 });
  }, 120_000);

  afterAll(async () => {
    await forward?.close();
    await ns?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  const lookup = async (sopInstanceUid: string) => {
    const found = await orthanc.rest<{ ID: string; Type: string }[]>('POST', '/tools/lookup', sopInstanceUid);
    return found.find((f) => f.Type === 'Instance')?.ID;
  };

  it('stores a multi-series study on one association, then moves it to another AE with progress', async () => {
    const sources = await Promise.all(studyFiles.map((file) => fileStoreSource(file)));
    const association = await openAssociation(peer, {
      callingAe: INBOX_AE,
      contexts: storageContexts(sources),
    });
    try {
      const outcomes = await association.storeAll(sources);
      expect(outcomes.map((o) => o.sopInstanceUid)).toEqual(sources.map((source) => source.sopInstanceUid));
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({
          category: 'success',
          status: 0,
          transferSyntax: EXPLICIT_LE,
          transcoded: false,
        });
      }
    } finally {
      await association.release();
    }
    const stored = await orthanc.rest<string[]>('GET', '/instances');
    expect(stored.length).toBe(studyFiles.length);

    const mover = await openAssociation(peer, { callingAe: INBOX_AE, contexts: moveContexts('study-root') });
    const progress: MoveProgress[] = [];
    try {
      const result = await mover.move(
        { model: 'study-root', level: 'STUDY', keys: { StudyInstanceUID: study.studyInstanceUid } },
        'STORESCP',
        { onProgress: (p) => progress.push(p) },
      );
      expect(result).toMatchObject({ status: 0, category: 'success', failed: 0 });
      expect(result.completed).toBe(studyFiles.length);
      // One pending response per sub-operation, counting down, then the final one.
      expect(progress).toHaveLength(studyFiles.length);
      expect(progress[0]).toMatchObject({ remaining: studyFiles.length - 1, completed: 1, failed: 0 });
      expect(progress.at(-1)).toMatchObject({ completed: studyFiles.length, failed: 0 });
    } finally {
      await mover.release();
    }
    // storescp's files show up on disk shortly after it has answered the sub-operations.
    for (let i = 0; i < 50 && fs.readdirSync(received).length < studyFiles.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(fs.readdirSync(received)).toHaveLength(studyFiles.length);
  });

  it('answers a move to an unknown destination with a failure (Orthanc: Cxxx, not A801)', async () => {
    const mover = await openAssociation(peer, { callingAe: INBOX_AE, contexts: moveContexts('study-root') });
    try {
      const result = await mover.move(
        { model: 'study-root', level: 'STUDY', keys: { StudyInstanceUID: study.studyInstanceUid } },
        'NOWHERE',
      );
      expect(result.category).toBe('failure');
      expect(result.status & 0xf000).toBe(0xc000);
      expect(mover.usable).toBe(true);
    } finally {
      await mover.release();
    }
  });

  it('streams a JPEG 2000 file unchanged: Orthanc holds the same dataset bytes', async () => {
    const copy = freshCorpusCopy('MR_small_jp2klossless.dcm');
    const file = path.join(workDir, 'j2k.dcm');
    fs.writeFileSync(file, copy.bytes);
    const source = await fileStoreSource(file);
    expect(source.transferSyntax).toBe('1.2.840.10008.1.2.4.90');
    const association = await openAssociation(peer, {
      callingAe: INBOX_AE,
      contexts: storageContexts([source]),
    });
    try {
      const outcome = await association.store(source);
      expect(outcome).toMatchObject({
        category: 'success',
        transferSyntax: source.transferSyntax,
        transcoded: false,
      });
    } finally {
      await association.release();
    }
    const id = await lookup(source.sopInstanceUid);
    const held = await orthanc.restBytes(`/instances/${id}/file`);
    expect(datasetOf(held).equals(datasetOf(copy.bytes))).toBe(true);
  });

  it('falls back to Explicit VR Little Endian when the file’s syntax is refused, or fails the instance with the reason', async () => {
    const copy = freshCorpusCopy('MR_small_RLE.dcm');
    const file = path.join(workDir, 'rle.dcm');
    fs.writeFileSync(file, copy.bytes);
    const source = await fileStoreSource(file);
    const association = await openAssociation(peer, {
      callingAe: INBOX_AE,
      contexts: storageContexts([source]),
    });
    try {
      expect(association.contexts.map((c) => c.transferSyntax)).toEqual([EXPLICIT_LE]);
      const outcome = await association.store(source);
      expect(outcome).toMatchObject({ category: 'success', transferSyntax: EXPLICIT_LE, transcoded: true });

      // A SOP class nobody proposed: the instance fails, the association goes on.
      const stray: StoreSource = { ...source, sopClassUid: '1.2.840.10008.5.1.4.1.1.2' };
      const refused = await association.store(stray);
      expect(refused).toMatchObject({ category: 'failure', status: -1 });
      expect(refused.reason).toMatch(
        /no presentation context for SOP class 1\.2\.840\.10008\.5\.1\.4\.1\.1\.2/,
      );
      expect(association.usable).toBe(true);
    } finally {
      await association.release();
    }
    const id = await lookup(source.sopInstanceUid);
    const tags = await orthanc.rest<Record<string, string>>('GET', `/instances/${id}/metadata?expand`);
    expect(tags['TransferSyntax']).toBe(EXPLICIT_LE);
  });

  it('fails each instance in flight with a clear reason when the PACS dies mid-store, without hanging', async () => {
    const dir = path.join(workDir, 'big');
    fs.mkdirSync(dir);
    const sources: StoreSource[] = [];
    for (let n = 1; n <= 12; n++) {
      const bytes = buildInstance({
        ...studyWithSeriesInstance(study, n),
        rows: 1024,
        columns: 1024,
      });
      const file = path.join(dir, `${n}.dcm`);
      fs.writeFileSync(file, bytes);
      sources.push(await fileStoreSource(file));
    }
    const association = await openAssociation(peer, {
      callingAe: INBOX_AE,
      contexts: storageContexts(sources),
      timeouts: { responseMs: 10_000, writeStallMs: 10_000 },
    });
    const started = Date.now();
    // One by one, then the rest in one go: Orthanc is killed once the second is stored.
    const outcomes = [await association.store(sources[0]!)];
    outcomes.push(
      ...(await association.storeAll(sources.slice(1), {
        onOutcome: (_, index) => {
          if (index === 0) orthanc.process.kill('SIGKILL');
        },
      })),
    );
    expect(outcomes).toHaveLength(sources.length);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(outcomes[0]).toMatchObject({ category: 'success' });
    const lost = outcomes.filter((o) => o.category !== 'success');
    expect(lost.length).toBeGreaterThanOrEqual(9);
    for (const outcome of lost) {
      expect(outcome.category).toBe('retry');
      expect(outcome.reason).toMatch(/association|connection|closed|aborted/i);
    }
    expect(association.usable).toBe(false);
    await association.release();
  });
});

/** Instance `n` of a new series of `study` (1024×1024 CT slices, 2 MB each). */
function studyWithSeriesInstance(study: StudySpec, n: number) {
  return {
    ...study,
    seriesInstanceUid: `${study.studyInstanceUid}.99`,
    seriesNumber: 99,
    seriesDescription: 'BIG',
    modality: 'CT' as const,
    bodyPart: 'CHEST',
    sopInstanceUid: `${study.studyInstanceUid}.99.${n}`,
    instanceNumber: n,
  };
}
