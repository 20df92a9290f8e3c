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

/** The studies the user of `sid` finds with study/list filters (e.g. `'filter.patientid.like': mrn`). */
export async function findStudies(
  baseUrl: string,
  sid: string,
  filters: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  const { studies } = await apiGet<{ studies: Record<string, unknown>[] }>(baseUrl, 'study/list', {
    sid,
    ...filters,
  });
  return studies;
}

/** The SOP Class UIDs of a study's instances, through QIDO-RS. */
export async function instanceClasses(baseUrl: string, sid: string, studyUid: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/dicomweb/studies/${studyUid}/instances`, {
    headers: { Authorization: `Bearer ${sid}`, Accept: 'application/dicom+json' },
  });
  if (response.status !== 200) throw new Error(`QIDO-RS instances answered ${response.status}`);
  const instances = (await response.json()) as Record<string, { Value?: string[] }>[];
  return instances.map((i) => i['00080016']?.Value?.[0] ?? '');
}

/** The study just uploaded with this MRN, once study/list finds it (its files are stored a moment later). */
export async function uploadedStudy(
  baseUrl: string,
  sid: string,
  mrn: string,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [study] = await findStudies(baseUrl, sid, { 'filter.patientid.like': mrn });
    if (study) return study;
    if (Date.now() > deadline) throw new Error(`no study with MRN ${mrn}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
