import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudySpec } from '../../../src/dicom/generate.js';
import {
  AssociationError,
  echo,
  findAll,
  findContexts,
  openAssociation,
  textOf,
  VERIFICATION_CONTEXT,
} from '../../../src/dimse/client/index.js';
import type { Peer } from '../../../src/dimse/client/index.js';
import { createNetworkNamespace } from '../../support/netns.js';
import type { NetworkNamespace } from '../../support/netns.js';
import { forwardIntoNamespace } from '../../support/netns-forward.js';
import type { Forward } from '../../support/netns-forward.js';
import { startOrthanc, storeWithStorescu } from '../../support/orthanc.js';
import { INBOX_AE, studyWithSeries, writeOneInstanceStudies, writeStudy } from './support.js';

/**
 * The DICOM client against Orthanc as the PACS: C-ECHO, C-FIND at patient, study and series level
 * in both information models, a refused association, and a query with 1,000 matches (cap, C-CANCEL,
 * abort). Orthanc binds every interface, so it runs in a private network namespace and the client
 * reaches it through a forwarded port. No database: the client stands alone.
 */
describe('DICOM client queries against Orthanc', () => {
  let ns: NetworkNamespace;
  let workDir: string;
  let forward: Forward;
  let peer: Peer;
  let study: StudySpec;
  const BULK_PATIENT = 'BULK1000';

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-scu-query-'));
    ns = await createNetworkNamespace();
    const orthanc = await startOrthanc(ns, workDir, {
      modalities: { INBOX: [INBOX_AE, '127.0.0.1', 11112] },
    });
    forward = await forwardIntoNamespace(ns, orthanc.dicomPort);
    peer = { host: '127.0.0.1', port: forward.port, aeTitle: orthanc.aeTitle };
    study = studyWithSeries(15, 3);
    const data = path.join(workDir, 'data');
    writeStudy(path.join(data, 'study'), study, { rows: 16, columns: 16 });
    writeOneInstanceStudies(path.join(data, 'bulk'), 1000, 77, BULK_PATIENT);
    await storeWithStorescu(ns, orthanc, INBOX_AE, data);
  }, 180_000);

  afterAll(async () => {
    await forward?.close();
    await ns?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  const options = () => ({ callingAe: INBOX_AE });

  it('answers C-ECHO, on a one-call helper and on an open association', async () => {
    const { roundTripMs } = await echo(peer, options());
    expect(roundTripMs).toBeGreaterThanOrEqual(0);
    const association = await openAssociation(peer, { ...options(), contexts: [VERIFICATION_CONTEXT] });
    expect(association.peerMaxPduLength).toBeGreaterThan(0);
    expect(await association.echo()).toBe(0);
    expect(await association.echo()).toBe(0);
    await association.release();
    expect(association.usable).toBe(false);
    await expect(association.echo()).rejects.toBeInstanceOf(AssociationError);
  });

  it('finds a study at study level (Study Root) with its attributes decoded', async () => {
    const { results, outcome } = await findAll(peer, options(), {
      model: 'study-root',
      level: 'STUDY',
      keys: {
        StudyInstanceUID: study.studyInstanceUid,
        PatientName: '',
        PatientID: '',
        PatientBirthDate: '',
        AccessionNumber: '',
        StudyDate: '',
        StudyDescription: '',
        ModalitiesInStudy: '',
        NumberOfStudyRelatedInstances: '',
      },
    });
    expect(outcome).toMatchObject({ status: 0, count: 1, truncated: false });
    const [found] = results;
    expect(textOf(found!, 'StudyInstanceUID')).toBe(study.studyInstanceUid);
    expect(textOf(found!, 'PatientName')).toBe(study.patientName);
    expect(textOf(found!, 'PatientID')).toBe(study.patientId);
    expect(textOf(found!, 'AccessionNumber')).toBe(study.accessionNumber);
    expect(textOf(found!, 'StudyDate')).toBe(study.studyDate);
    expect(textOf(found!, 'StudyDescription')).toBe(study.studyDescription);
    expect(textOf(found!, 'ModalitiesInStudy')).toBe(study.modality);
    const instances = study.series.reduce((sum, s) => sum + s.instanceCount, 0);
    expect(Number(textOf(found!, 'NumberOfStudyRelatedInstances'))).toBe(instances);
  });

  it('finds by patient name with a wildcard and by a date range', async () => {
    const [last] = study.patientName.split('^');
    const { results } = await findAll(peer, options(), {
      model: 'study-root',
      level: 'STUDY',
      keys: {
        PatientName: `${last}*`,
        StudyDate: `${study.studyDate}-${study.studyDate}`,
        StudyInstanceUID: '',
      },
    });
    expect(results.map((r) => textOf(r, 'StudyInstanceUID'))).toContain(study.studyInstanceUid);
  });

  it('finds the series of a study (series level)', async () => {
    const { results } = await findAll(peer, options(), {
      model: 'study-root',
      level: 'SERIES',
      keys: {
        StudyInstanceUID: study.studyInstanceUid,
        SeriesInstanceUID: '',
        Modality: '',
        SeriesNumber: '',
      },
    });
    expect(results.map((r) => textOf(r, 'SeriesInstanceUID')).sort()).toEqual(
      study.series.map((s) => s.seriesInstanceUid).sort(),
    );
  });

  it('finds at patient level and a patient’s studies (Patient Root)', async () => {
    const patients = await findAll(peer, options(), {
      model: 'patient-root',
      level: 'PATIENT',
      keys: { PatientID: study.patientId, PatientName: '', PatientSex: '' },
    });
    expect(patients.results).toHaveLength(1);
    expect(textOf(patients.results[0]!, 'PatientName')).toBe(study.patientName);
    expect(textOf(patients.results[0]!, 'PatientSex')).toBe(study.patientSex);

    const studies = await findAll(peer, options(), {
      model: 'patient-root',
      level: 'STUDY',
      keys: { PatientID: study.patientId, StudyInstanceUID: '' },
    });
    expect(studies.results.map((r) => textOf(r, 'StudyInstanceUID'))).toContain(study.studyInstanceUid);
  });

  it('is refused for an unknown called AE and for an unregistered calling AE', async () => {
    const refused = await openAssociation({ ...peer, aeTitle: 'NOBODY' }, options()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AssociationError);
    expect((refused as AssociationError).kind).toBe('rejected');
    expect((refused as AssociationError).message).toMatch(/called AE title not recognized/);

    // Orthanc answers anyone's C-ECHO but no C-FIND from an AE it does not list.
    const stranger = await findAll(
      peer,
      { callingAe: 'STRANGER' },
      { model: 'study-root', level: 'STUDY', keys: { StudyInstanceUID: '' } },
    ).catch((e: unknown) => e);
    expect(stranger).toBeInstanceOf(AssociationError);
    expect((stranger as AssociationError).kind).toBe('aborted');
  });

  it('stops at the cap of 500 of 1,000 matches with a C-CANCEL, and the association goes on', async () => {
    const association = await openAssociation(peer, {
      ...options(),
      contexts: [...findContexts('study-root'), VERIFICATION_CONTEXT],
    });
    try {
      const started = Date.now();
      const stream = association.find({
        model: 'study-root',
        level: 'STUDY',
        keys: { PatientID: BULK_PATIENT, StudyInstanceUID: '' },
      });
      const uids = new Set<string>();
      for await (const result of stream) uids.add(textOf(result, 'StudyInstanceUID'));
      expect(uids.size).toBe(500);
      expect(stream.outcome).toMatchObject({ count: 500, truncated: true });
      expect([0x0000, 0xfe00]).toContain(stream.outcome!.status);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(await association.echo()).toBe(0);

      const all = association.find(
        { model: 'study-root', level: 'STUDY', keys: { PatientID: BULK_PATIENT, StudyInstanceUID: '' } },
        { cap: 2000 },
      );
      let count = 0;
      for await (const _ of all) count++;
      expect(count).toBe(1000);
      expect(all.outcome).toMatchObject({ status: 0, count: 1000, truncated: false });
    } finally {
      await association.release();
    }
  });

  it('cancels when the caller aborts or stops iterating, and the association stays usable', async () => {
    const association = await openAssociation(peer, {
      ...options(),
      contexts: [...findContexts('study-root'), VERIFICATION_CONTEXT],
    });
    const request = {
      model: 'study-root' as const,
      level: 'STUDY' as const,
      keys: { PatientID: BULK_PATIENT, StudyInstanceUID: '' },
    };
    try {
      const controller = new AbortController();
      let seen = 0;
      const aborted = (async () => {
        for await (const _ of association.find(request, { signal: controller.signal, cap: 5000 })) {
          if (++seen === 10) controller.abort(new Error('the user gave up'));
        }
      })();
      await expect(aborted).rejects.toThrow('the user gave up');
      expect(seen).toBe(10);
      expect(association.usable).toBe(true);
      expect(await association.echo()).toBe(0);

      let taken = 0;
      for await (const _ of association.find(request, { cap: 5000 })) if (++taken === 3) break;
      expect(taken).toBe(3);
      expect(await association.echo()).toBe(0);
    } finally {
      await association.release();
    }
  });
});

describe('DICOM client timeouts and unreachable peers', () => {
  it('fails to connect to a closed port and times out on a peer that never answers', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await echo(
      { host: '127.0.0.1', port: closedPort, aeTitle: 'X' },
      { callingAe: 'INBOX' },
    ).catch((e: unknown) => e);
    expect((unreachable as AssociationError).kind).toBe('connect');

    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const timedOut = await echo(
        { host: '127.0.0.1', port, aeTitle: 'SILENT' },
        { callingAe: 'INBOX', timeouts: { associateMs: 300 } },
      ).catch((e: unknown) => e);
      expect((timedOut as AssociationError).kind).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
