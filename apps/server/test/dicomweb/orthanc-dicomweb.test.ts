import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYDICOM } from '../support/corpus.js';
import type { NetworkNamespace } from '../support/netns.js';
import { createNetworkNamespace, waitForHttp } from '../support/netns.js';
import { SERVER_ARGS, SERVER_MAIN } from '../support/child-server.js';
import { DEMO_PASSWORD } from '../support/test-server.js';

/**
 * Orthanc's DICOMweb plugin pointed at our server as a remote DICOMweb server: an independent
 * implementation lists our studies (QIDO-RS) and pulls them (WADO-RS) into its own store. Orthanc
 * binds every interface, so it runs in a private network namespace, and so does the built server
 * it talks to (the in-process test server lives in the host namespace and cannot be reached).
 * SQLite only: the DICOMweb answers do not depend on the database, which the other DICOMweb
 * suites cover on both.
 */

const DICOMWEB_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';
const INBOX = 'http://127.0.0.1:8090';
const ORTHANC = 'http://127.0.0.1:8042';

describe('Orthanc DICOMweb plugin reading from our server', () => {
  let ns: NetworkNamespace;
  let workDir: string;
  let sid: string;

  /** One HTTP call made from inside the namespace; answers the parsed JSON body. */
  async function http<T = unknown>(method: string, url: string, body?: unknown, headers: string[] = []) {
    const args = ['-s', '-f', '-X', method, url, ...headers.flatMap((h) => ['-H', h])];
    if (body !== undefined) args.push('--data-binary', '@-');
    const out = await ns.run('curl', args, body === undefined ? {} : { input: JSON.stringify(body) });
    return JSON.parse(out) as T;
  }

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-orthanc-'));
    fs.mkdirSync(path.join(workDir, 'orthanc'));
    fs.writeFileSync(
      path.join(workDir, 'orthanc.json'),
      JSON.stringify({
        Name: 'interop',
        StorageDirectory: path.join(workDir, 'orthanc'),
        IndexDirectory: path.join(workDir, 'orthanc'),
        HttpPort: 8042,
        DicomPort: 4242,
        RemoteAccessAllowed: false,
        AuthenticationEnabled: false,
        Plugins: [DICOMWEB_PLUGIN],
        DicomWeb: { Enable: true, Root: '/dicom-web/' },
      }),
    );
    ns = await createNetworkNamespace();
    ns.start('node', SERVER_ARGS, {
      PORT: '8090',
      HOST: '127.0.0.1',
      DICOM_PORT: '0',
      DATA_DIR: path.join(workDir, 'inbox'),
      DEMO_PASSWORD,
      SEED_STUDIES: '8',
      LOG_LEVEL: 'warn',
    });
    ns.start('Orthanc', [path.join(workDir, 'orthanc.json')], { TCP_NODELAY: '1' });
    await waitForHttp(ns, `${INBOX}/api/v3/health`);
    await waitForHttp(ns, `${ORTHANC}/system`);

    const login = await http<{ sid: string }>(
      'POST',
      `${INBOX}/api/v3/session/login`,
      { login: 'clinician@demo.local', password: DEMO_PASSWORD },
      ['content-type: application/json'],
    );
    sid = login.sid;
    // Register our server in Orthanc as a DICOMweb peer that authenticates with the session.
    await ns.run(
      'curl',
      ['-s', '-f', '-X', 'PUT', `${ORTHANC}/dicom-web/servers/inbox`, '--data-binary', '@-'],
      {
        input: JSON.stringify({ Url: `${INBOX}/dicomweb/`, HttpHeaders: { Authorization: `Bearer ${sid}` } }),
      },
    );
  }, 120_000);

  afterAll(async () => {
    await ns?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  // Orthanc re-serialises the answers it relays with single values unwrapped from their arrays.
  const uidsOf = (matches: Record<string, { Value?: unknown }>[]) =>
    matches
      .map((m) => m['0020000D']!.Value)
      .map((v) => (Array.isArray(v) ? (v[0] as string) : (v as string)))
      .sort();

  it('lists the same studies through Orthanc as our QIDO-RS answers directly', async () => {
    const ours = await http<Record<string, { Value?: unknown[] }>[]>(
      'GET',
      `${INBOX}/dicomweb/studies?limit=1000`,
      undefined,
      [`Authorization: Bearer ${sid}`],
    );
    expect(ours.length).toBeGreaterThan(0);
    const viaOrthanc = await http<Record<string, { Value?: unknown[] }>[]>(
      'POST',
      `${ORTHANC}/dicom-web/servers/inbox/qido`,
      { Uri: '/studies', Arguments: { limit: '1000' } },
    );
    expect(uidsOf(viaOrthanc)).toEqual(uidsOf(ours));
  });

  it('retrieves a study into Orthanc with every instance intact', async () => {
    const [study] = await http<Record<string, { Value?: unknown[] }>[]>(
      'GET',
      `${INBOX}/dicomweb/studies?limit=1`,
      undefined,
      [`Authorization: Bearer ${sid}`],
    );
    const studyUid = study!['0020000D']!.Value![0] as string;
    const ourInstances = await http<Record<string, { Value?: unknown[] }>[]>(
      'GET',
      `${INBOX}/dicomweb/studies/${studyUid}/instances`,
      undefined,
      [`Authorization: Bearer ${sid}`],
    );

    await http('POST', `${ORTHANC}/dicom-web/servers/inbox/retrieve`, { Resources: [{ Study: studyUid }] });

    const studies = await http<{ ID: string; MainDicomTags: { StudyInstanceUID: string } }[]>(
      'GET',
      `${ORTHANC}/studies?expand`,
    );
    const stored = studies.find((s) => s.MainDicomTags.StudyInstanceUID === studyUid);
    expect(stored).toBeDefined();
    const instances = await http<{ MainDicomTags: { SOPInstanceUID: string } }[]>(
      'GET',
      `${ORTHANC}/studies/${stored!.ID}/instances`,
    );
    expect(instances.map((i) => i.MainDicomTags.SOPInstanceUID).sort()).toEqual(
      ourInstances.map((i) => i['00080018']!.Value![0] as string).sort(),
    );
  });

  it('retrieves a JPEG-compressed instance in its stored transfer syntax', async () => {
    const emergency = (
      await http<{ groups: { name: string; namespace_id: string }[] }>(
        'POST',
        `${INBOX}/api/v3/group/list`,
        { sid },
        ['content-type: application/json'],
      )
    ).groups.find((g) => g.name === 'Emergency')!;
    const upload = JSON.parse(
      await ns.run('curl', [
        '-s',
        '-f',
        '-X',
        'POST',
        `${INBOX}/api/v3/storage/namespace/${emergency.namespace_id}/image?sid=${sid}`,
        '-H',
        'content-type: application/dicom',
        '--data-binary',
        `@${path.join(PYDICOM, 'SC_rgb_jpeg_dcmtk.dcm')}`,
      ]),
    ) as { study_uid: string; sop_instance_uid: string };

    await http('POST', `${ORTHANC}/dicom-web/servers/inbox/retrieve`, {
      Resources: [{ Study: upload.study_uid }],
    });
    const matches = await http<string[]>('POST', `${ORTHANC}/tools/find`, {
      Level: 'Instance',
      Query: { SOPInstanceUID: upload.sop_instance_uid },
    });
    expect(matches).toHaveLength(1);
    const syntax = await ns.run('curl', [
      '-s',
      '-f',
      `${ORTHANC}/instances/${matches[0]!}/metadata/TransferSyntax`,
    ]);
    expect(syntax).toBe('1.2.840.10008.1.2.4.50');
  });

  it('gets nothing from our server when Orthanc presents a bad session', async () => {
    await ns.run(
      'curl',
      ['-s', '-f', '-X', 'PUT', `${ORTHANC}/dicom-web/servers/stranger`, '--data-binary', '@-'],
      { input: JSON.stringify({ Url: `${INBOX}/dicomweb/`, HttpHeaders: { Authorization: 'Bearer nope' } }) },
    );
    const refused = await http('POST', `${ORTHANC}/dicom-web/servers/stranger/qido`, {
      Uri: '/studies',
    }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');
  });
});
