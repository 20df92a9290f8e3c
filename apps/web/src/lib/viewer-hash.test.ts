import { describe, expect, it } from 'vitest';
import { parseViewerHash, viewerHash } from './viewer-hash';

describe('viewer hash', () => {
  it('reads storage namespace, study UID and phi namespace', () => {
    expect(parseViewerHash('#study/ns1/1.2.840.1/ns2')).toEqual({
      storageNamespace: 'ns1',
      studyUid: '1.2.840.1',
      phiNamespace: 'ns2',
    });
  });

  it('round-trips and refuses anything else', () => {
    const target = { storageNamespace: 'a b', studyUid: '1.2', phiNamespace: 'c' };
    expect(parseViewerHash(viewerHash(target))).toEqual(target);
    expect(parseViewerHash('#study/a/b')).toBeNull();
    expect(parseViewerHash('#series/a/b/c')).toBeNull();
    expect(parseViewerHash('#study/a/%E0/c')).toBeNull();
  });
});
