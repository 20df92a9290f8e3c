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
    ['RETRIEVE_END', 'destination', null],
    ['REPORT_ADD', 'study', 'report added'],
  ])('%s of %s shows as %s', (action, type, kind) => {
    expect(historyKind(action, type)).toBe(kind);
  });
  it('tells a retrieve that filled the study from one that failed part-way', () => {
    expect(historyKind('RETRIEVE_END', 'study', 'SUCCESS')).toBe('retrieved');
    expect(historyKind('RETRIEVE_END', 'study', 'FAILURE')).toBe('retrieve incomplete');
  });
});

describe('historyDetail', () => {
  it('names the PACS a retrieve came from, and why one stopped short', () => {
    expect(historyDetail('retrieved', { destination_name: 'Orthanc', reason: null })).toBe('from Orthanc');
    expect(
      historyDetail('retrieve incomplete', { destination_name: 'Orthanc', reason: 'the peer closed' }),
    ).toBe('from Orthanc: the peer closed');
  });
  it('names the report added, its kind and status', () => {
    expect(historyDetail('report added', { title: 'Emergency read', kind: 'SR', status: 'Final' })).toBe(
      'Emergency read (SR, Final)',
    );
  });
  it('names the tag a tag edit added or removed', () => {
    expect(historyDetail('edit', { tag_added: 'urgent' })).toBe('Tag added: urgent');
    expect(historyDetail('edit', { tag_removed: 'urgent' })).toBe('Tag removed: urgent');
  });
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
  it("names a routing rule's run, and why it failed", () => {
    expect(historyKind('ROUTE', 'study', 'SUCCESS')).toBe('routed');
    expect(historyKind('ROUTE', 'study', 'FAILURE')).toBe('routing failed');
    expect(historyDetail('routed', { route_name: 'CT to Cardiology', action: 'share_group' })).toBe(
      'CT to Cardiology: shared to a group',
    );
    expect(
      historyDetail('routing failed', {
        route_name: 'To PACS',
        action: 'push',
        error: 'Destination is gone',
      }),
    ).toBe('To PACS: sent to a destination · Destination is gone');
  });
});
