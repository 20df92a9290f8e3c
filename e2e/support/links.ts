import { apiGet, apiPost } from './actions';

/** The namespace id of the group called `name`, as the user of `sid` sees it (group/list). */
export async function groupNamespaceId(baseUrl: string, sid: string, name: string): Promise<string> {
  const { groups } = await apiGet<{ groups: { name: string; namespace_id: string }[] }>(
    baseUrl,
    'group/list',
    {
      sid,
    },
  );
  const group = groups.find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name} for this user`);
  return group.namespace_id;
}

/** A request-study link into a group (link/add, action STUDY_UPLOAD), mailed to `email`, alive an hour. */
export async function addUploadLink(
  baseUrl: string,
  sid: string,
  link: { namespaceId: string; email: string; maxHits: number; message: string },
): Promise<void> {
  const added = await apiPost<{ status: string }>(baseUrl, 'link/add', {
    sid,
    namespace_id: link.namespaceId,
    action: 'STUDY_UPLOAD',
    email: link.email,
    max_hits: String(link.maxHits),
    minutes_alive: '60',
    message: link.message,
  });
  if (added.status !== 'OK') throw new Error(`link/add failed: ${JSON.stringify(added)}`);
}

/** The studies of a group that match study/list filters (e.g. `'filter.patientid.like': mrn`). */
export async function studiesInGroup(
  baseUrl: string,
  sid: string,
  namespaceId: string,
  filters: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  const { studies } = await apiGet<{ studies: Record<string, unknown>[] }>(baseUrl, 'study/list', {
    sid,
    ...filters,
    'filter.phi_namespace.equals': namespaceId,
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
