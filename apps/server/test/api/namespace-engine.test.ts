import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/** namespace/engine/fqdn (SPEC.md section 7): by namespace_id, or by a study's namespace and uid. */
describe.each(DIALECTS)('namespace/engine/fqdn on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let emergency: string;
  let studyUid: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(clinician, 'Emergency');
    const stored = await server.api.upload(
      clinician,
      emergency,
      fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm')),
    );
    studyUid = stored.body.study_uid;
  });
  afterAll(() => server?.stop());

  it("answers this server's host for a member's namespace and for a study the caller may view", async () => {
    const byNamespace = await server.api.call(
      'namespace/engine/fqdn',
      { namespace_id: emergency },
      clinician,
    );
    expect(byNamespace.body).toMatchObject({ status: 'OK', namespace_id: emergency });
    expect(typeof byNamespace.body.engine_fqdn).toBe('string');
    expect(byNamespace.body.engine_fqdn.length).toBeGreaterThan(0);
    const byStudy = await server.api.get('namespace/engine/fqdn', {
      sid: clinician,
      storage_namespace: emergency,
      study_uid: studyUid,
      phi_namespace: emergency,
    });
    expect(byStudy.body).toMatchObject({
      engine_fqdn: byNamespace.body.engine_fqdn,
      namespace_id: emergency,
    });
    // study/get names the same engine.
    const list = await server.api.call('study/list', { 'filter.study_uid.equals': studyUid }, clinician);
    expect(list.body.studies[0].engine_fqdn).toBe(byNamespace.body.engine_fqdn);
  });

  it('refuses a missing namespace, an unknown study and a namespace the caller is not in', async () => {
    const missing = await server.api.call('namespace/engine/fqdn', { study_uid: studyUid }, clinician);
    expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    const unknown = await server.api.call(
      'namespace/engine/fqdn',
      { storage_namespace: emergency, study_uid: '1.2.3.4' },
      clinician,
    );
    expect(unknown.body.error_type).toBe('NOT_FOUND');
    const partner = await server.api.login('partner@demo.local');
    const foreign = await server.api.call('namespace/engine/fqdn', { namespace_id: emergency }, partner);
    expect(foreign.body.error_type).toBe('NOT_FOUND');
    const foreignStudy = await server.api.call(
      'namespace/engine/fqdn',
      { storage_namespace: emergency, study_uid: studyUid },
      partner,
    );
    expect(foreignStudy.body.error_type).toBe('NOT_FOUND');
  });
});
