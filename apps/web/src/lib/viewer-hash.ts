/** The study the viewer shows, from its URL hash `#study/{storage_namespace}/{study_uid}/{phi_namespace}`. */
export interface ViewerTarget {
  storageNamespace: string;
  studyUid: string;
  phiNamespace: string;
}

export function parseViewerHash(hash: string): ViewerTarget | null {
  const match = /^#?study\/([^/]+)\/([^/]+)\/([^/?]+)$/.exec(hash);
  if (!match) return null;
  try {
    const [storageNamespace, studyUid, phiNamespace] = match.slice(1).map(decodeURIComponent) as [
      string,
      string,
      string,
    ];
    return { storageNamespace, studyUid, phiNamespace };
  } catch {
    return null;
  }
}

export function viewerHash(target: ViewerTarget): string {
  return `#study/${[target.storageNamespace, target.studyUid, target.phiNamespace].map(encodeURIComponent).join('/')}`;
}
