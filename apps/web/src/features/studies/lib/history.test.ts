import { describe, expect, it } from 'vitest';
import { historyKind } from './history';

describe('historyKind', () => {
  it.each([
    ['CREATE', 'study', 'upload'],
    ['CREATE', 'invite', 'invite'],
    ['CREATE', 'share', 'shared'],
    ['EDIT', 'study', 'edit'],
    ['STUDY_VIEW', 'study', 'view'],
    ['STUDY_DOWNLOAD', null, 'download'],
    ['DELETE', 'share', 'remove share'],
    ['DELETE', 'study', null],
    ['LOGIN', 'user', null],
  ])('%s of %s shows as %s', (action, type, kind) => {
    expect(historyKind(action, type)).toBe(kind);
  });
});
