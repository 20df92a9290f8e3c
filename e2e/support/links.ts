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
