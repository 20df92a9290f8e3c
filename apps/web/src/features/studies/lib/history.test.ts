import { describe, expect, it } from 'vitest';
import { historyDetail, historyKind } from './history';

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

describe('historyDetail', () => {
  it('says what an edit changed, old → new', () => {
    expect(historyDetail('edit', { before: { patientid: 'A1' }, after: { patientid: 'B2' }, files: 3 })).toBe(
      'MRN: A1 → B2',
    );
    expect(historyDetail('edit', { before: {}, after: { 'customfield-x': 'yes' } })).toBe('x: — → yes');
  });
  it('names the bundle of a download and the recipient of a share', () => {
    expect(historyDetail('download', { bundle: 'iso', instances: 4 })).toBe('ISO · 4 images');
    expect(historyDetail('download', { bundle: 'dicom' })).toBe('ZIP');
    expect(historyDetail('shared', { target_type: 'group', target_name: 'Cardiology' })).toBe(
      'with Cardiology',
    );
    expect(historyDetail('remove share', { target_type: 'user' })).toBe('from user');
    expect(historyDetail('view', null)).toBe('');
  });
});
