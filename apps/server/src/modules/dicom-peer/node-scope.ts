/**
 * What a registered DICOM node may reach when it queries or retrieves (decision 0061): the
 * namespaces of the groups its registration names, and only those of its own account (a group uuid
 * of another account, or of a group since deleted, grants nothing). Retrieval needs both the
 * retrieve flag and something to query.
 */
export interface DicomNodeGrant {
  account_id: string;
  query_groups: string;
  may_retrieve: number;
}

/** The group uuids a node's `query_groups` names; a malformed value names none. */
export function queryGroupIds(queryGroups: string): string[] {
  try {
    const parsed: unknown = JSON.parse(queryGroups);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The namespaces a node may query, from its account's groups. */
export function nodeQueryNamespaces(
  node: DicomNodeGrant,
  groups: readonly { uuid: string; account_id: string; namespace_id: string }[],
): string[] {
  const named = new Set(queryGroupIds(node.query_groups));
  return groups
    .filter((g) => g.account_id === node.account_id && named.has(g.uuid))
    .map((g) => g.namespace_id);
}

export function nodeMayRetrieve(node: DicomNodeGrant, namespaces: readonly string[]): boolean {
  return node.may_retrieve === 1 && namespaces.length > 0;
}
