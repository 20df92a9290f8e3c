import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet } from './actions';

export interface UploadedStudy {
  /** The unique MRN the study was given, to find its card. */
  mrn: string;
  studyUid: string;
  /** SOP instance UIDs of its files. */
  instances: string[];
}

/**
 * Uploads a freshly generated study with its own MRN into one of the caller's groups, through the
 * api, so a spec works on a study no other spec touches (and it is the newest upload there).
 */
export async function uploadFreshStudy(
  baseUrl: string,
  sid: string,
  groupName: string,
  mrn: string,
): Promise<UploadedStudy> {
  const { groups } = await apiGet<{ groups: { name: string; namespace_id: string }[] }>(
    baseUrl,
    'group/list',
    {
      sid,
    },
  );
  const group = groups.find((g) => g.name === groupName);
  if (!group) throw new Error(`no group named ${groupName}`);
  const seed = [...mrn].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const [generated] = generateStudySpecs(1, seed, { now: new Date() });
  const spec = { ...generated!, patientId: mrn };
  const files = writeStudyFiles(spec, { rows: 32, columns: 32 });
  for (const file of files) {
    const res = await fetch(
      `${baseUrl}/api/v3/storage/namespace/${group.namespace_id}/image?sid=${encodeURIComponent(sid)}`,
      { method: 'POST', headers: { 'content-type': 'application/dicom' }, body: Buffer.from(file.bytes) },
    );
    if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  }
  return { mrn, studyUid: spec.studyInstanceUid, instances: files.map((f) => f.sopInstanceUid) };
}
