import fs from 'node:fs';
import path from 'node:path';
import dicomParser from 'dicom-parser';
import { api } from 'dicomweb-client';
import XMLHttpRequest from 'xhr2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYDICOM } from '../support/corpus.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { largestStudyIn, someStudyUidIn } from '../support/studies.js';

/**
 * Our DICOMweb endpoints as an independent client sees them: the `dicomweb-client` package (the
 * one OHIF and Slim use) parses our JSON and multipart answers itself, so a framing or header
 * mistake on our side fails here even when our own tests agree with our own code.
 */

// dicomweb-client speaks XMLHttpRequest; xhr2 implements it on node:http.
(globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = XMLHttpRequest;

/** The calls used here; the package's generated typings mark optional options as required. */
interface Uids {
  studyInstanceUID: string;
  seriesInstanceUID?: string;
  sopInstanceUID?: string;
}
interface Client {
  searchForStudies(options?: { queryParams?: Record<string, string> }): Promise<unknown>;
  searchForSeries(options: Uids): Promise<unknown>;
  searchForInstances(options: Uids): Promise<unknown>;
  retrieveStudyMetadata(options: Uids): Promise<unknown>;
  retrieveInstance(options: Uids): Promise<unknown>;
  retrieveInstanceFrames(
    options: Uids & {
      frameNumbers: number[];
      mediaTypes?: { mediaType: string; transferSyntaxUID?: string }[];
    },
  ): Promise<unknown>;
  retrieveInstanceRendered(options: Uids & { mediaTypes?: { mediaType: string }[] }): Promise<unknown>;
  retrieveStudy(options: Uids): Promise<unknown>;
}
const DICOMwebClient = api.DICOMwebClient as unknown as new (options: {
  url: string;
  headers?: Record<string, string>;
}) => Client;

type DicomJson = Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string }>;
const first = (dataset: DicomJson, tag: string) => dataset[tag]?.Value?.[0];

describe.each(DIALECTS)('DICOMweb through the dicomweb-client package on %s', (dialect) => {
  let server: TestServer;
  let client: Client;
  let study: { study_uid: string; patient_name: string; image_count: number; series_count: number };
  let foreignStudyUid: string;

  const clientFor = (sid: string) =>
    new DICOMwebClient({ url: `${server.url}/dicomweb`, headers: { Authorization: `Bearer ${sid}` } });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    client = clientFor(await server.api.login('clinician@demo.local'));
    study = await largestStudyIn(server.ctx.db, 'Emergency');
    foreignStudyUid = await someStudyUidIn(server.ctx.db, 'PACS Intake');
  });
  afterAll(() => server?.stop());

  it('searches studies, series and instances', async () => {
    const lastName = study.patient_name.split('^')[0]!;
    const studies = (await client.searchForStudies({
      queryParams: { PatientName: `${lastName}*`, limit: '100' },
    })) as DicomJson[];
    expect(studies.map((s) => first(s, '0020000D'))).toContain(study.study_uid);

    const series = (await client.searchForSeries({ studyInstanceUID: study.study_uid })) as DicomJson[];
    expect(series).toHaveLength(study.series_count);
    const instances = (await client.searchForInstances({
      studyInstanceUID: study.study_uid,
    })) as DicomJson[];
    expect(instances).toHaveLength(study.image_count);
  });

  it('retrieves metadata, instances, frames and a rendered image that match each other', async () => {
    const metadata = (await client.retrieveStudyMetadata({
      studyInstanceUID: study.study_uid,
    })) as DicomJson[];
    expect(metadata).toHaveLength(study.image_count);
    const instance = metadata[0]!;
    const uids = {
      studyInstanceUID: study.study_uid,
      seriesInstanceUID: first(instance, '0020000E') as string,
      sopInstanceUID: first(instance, '00080018') as string,
    };

    const part10 = (await client.retrieveInstance(uids)) as ArrayBuffer;
    const parsed = dicomParser.parseDicom(new Uint8Array(part10));
    expect(parsed.string('x00080018')).toBe(uids.sopInstanceUID);
    expect(parsed.string('x00100010')).toBe(study.patient_name);

    const rows = first(instance, '00280010') as number;
    const columns = first(instance, '00280011') as number;
    const bytesPerSample = (first(instance, '00280100') as number) / 8;
    const samples = first(instance, '00280002') as number;
    const [frame] = (await client.retrieveInstanceFrames({ ...uids, frameNumbers: [1] })) as ArrayBuffer[];
    expect(frame!.byteLength).toBe(rows * columns * bytesPerSample * samples);

    // A single-part answer comes back as a one-element list of its bytes.
    const [png] = (await client.retrieveInstanceRendered({
      ...uids,
      mediaTypes: [{ mediaType: 'image/png' }],
    })) as ArrayBuffer[];
    expect([...new Uint8Array(png!, 0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

    const whole = (await client.retrieveStudy({ studyInstanceUID: study.study_uid })) as ArrayBuffer[];
    expect(whole).toHaveLength(study.image_count);
    const sops = whole.map((bytes) => dicomParser.parseDicom(new Uint8Array(bytes)).string('x00080018'));
    expect(sops).toContain(uids.sopInstanceUID);
  });

  it('retrieves compressed frames in their stored syntax when the client asks for it', async () => {
    const sid = await server.api.login('clinician@demo.local');
    const emergency = await server.api.namespaceOf(sid, 'Emergency');
    const uploaded = await server.api.upload(
      sid,
      emergency,
      fs.readFileSync(path.join(PYDICOM, 'SC_rgb_jpeg_dcmtk.dcm')),
    );
    expect(uploaded.status).toBe(202);
    const [jpeg] = (await clientFor(sid).retrieveInstanceFrames({
      studyInstanceUID: uploaded.body.study_uid,
      seriesInstanceUID: uploaded.body.series_uid,
      sopInstanceUID: uploaded.body.sop_instance_uid,
      frameNumbers: [1],
      mediaTypes: [{ mediaType: 'image/jpeg', transferSyntaxUID: '1.2.840.10008.1.2.4.50' }],
    })) as ArrayBuffer[];
    expect([...new Uint8Array(jpeg!, 0, 2)]).toEqual([0xff, 0xd8]);
  });

  it("refuses another group's study and a viewer-only user's search of it", async () => {
    const failure = await client.retrieveStudyMetadata({ studyInstanceUID: foreignStudyUid }).then(
      () => undefined,
      (error: { status?: number }) => error,
    );
    expect(failure?.status).toBe(404);
    const foreign = (await client.searchForStudies({
      queryParams: { StudyInstanceUID: foreignStudyUid },
    })) as DicomJson[];
    expect(foreign).toEqual([]);
    const anonymous = new DICOMwebClient({ url: `${server.url}/dicomweb` });
    const refused = await anonymous.searchForStudies().then(
      () => undefined,
      (error: { status?: number }) => error,
    );
    expect(refused?.status).toBe(401);
  });
});
