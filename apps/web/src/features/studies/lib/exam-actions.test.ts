import { describe, expect, it } from 'vitest';
import { newStudy } from '../../../test/factories';
import {
  canSubmitMrn,
  canSubmitShare,
  countOutcome,
  deleteNotices,
  normaliseTag,
  restoreNotices,
  selectionAllows,
  shareKinds,
  shareMessage,
  withoutUuids,
} from './exam-actions';
import { EXAM_TABS } from '../exam-tab-registry';
import { examTabs } from './exam-tabs';

const without = (...denied: string[]) => {
  const s = newStudy();
  for (const p of denied) (s.permissions as Record<string, 0 | 1>)[p] = 0;
  return s;
};

describe('selection permissions', () => {
  it('allows an action only when every selected study grants it', () => {
    expect(selectionAllows([newStudy(), newStudy()], 'study_delete')).toBe(true);
    expect(selectionAllows([newStudy(), without('study_delete')], 'study_delete')).toBe(false);
    expect(selectionAllows([], 'study_delete')).toBe(false);
  });
  it('offers user and group recipients by intersection', () => {
    expect(shareKinds([newStudy(), without('study_share_user')])).toEqual({ users: false, groups: true });
    expect(shareKinds([without('study_share'), newStudy()])).toEqual({ users: false, groups: false });
  });
  it('hides bulk tabs a single study of the selection refuses', () => {
    const tabs = examTabs(
      {
        groupType: 'CLOUD',
        state: 'Inbox',
        studies: [newStudy(), without('study_download_iso', 'study_delete')],
      },
      EXAM_TABS,
    ).tabs.map((tab) => tab.label);
    expect(tabs).not.toContain('Downloads');
    expect(tabs).not.toContain('Delete exams');
    expect(tabs).toContain('Share');
  });
});

describe('delete results', () => {
  it('pairs bundle answers with the uuids, a missing answer failing', () => {
    expect(
      countOutcome(['a', 'b', 'c'], [{ status: 'OK' }, { status: 'ERROR', error_type: 'NOT_PERMITTED' }]),
    ).toEqual({
      succeeded: ['a'],
      failed: [
        { uuid: 'b', code: 'NOT_PERMITTED' },
        { uuid: 'c', code: 'UNEXPECTED_ERROR' },
      ],
    });
  });
  it('uses the single-study texts for one study', () => {
    expect(deleteNotices(1, countOutcome(['a'], [{ status: 'OK' }]))).toEqual([
      { text: 'Exam Deleted Successfully', variant: 'success' },
    ]);
    expect(deleteNotices(1, countOutcome(['a'], [{ status: 'ERROR', error_type: 'NOT_FOUND' }]))).toEqual([
      { text: 'Exam failed to be deleted', variant: 'error' },
    ]);
  });
  it('counts succeeded and failed for many', () => {
    const outcome = countOutcome(
      ['a', 'b', 'c'],
      [{ status: 'OK' }, { status: 'OK' }, { status: 'ERROR', error_type: 'MISSING_FIELDS' }],
    );
    expect(deleteNotices(3, outcome)).toEqual([
      { text: '2 exams deleted successfully', variant: 'success' },
      { text: '1 exams failed to delete', variant: 'error' },
    ]);
    expect(deleteNotices(2, countOutcome(['a', 'b'], [{ status: 'OK' }, { status: 'OK' }]))).toEqual([
      { text: '2 exams deleted successfully', variant: 'success' },
    ]);
    expect(restoreNotices(2, countOutcome(['a', 'b'], []))).toEqual([
      { text: '2 exams failed to restore', variant: 'error' },
    ]);
  });
  it('drops deleted studies from the selection', () => {
    const a = newStudy();
    const b = newStudy();
    const selection = new Map([
      [a.uuid, a],
      [b.uuid, b],
    ]);
    expect([...withoutUuids(selection, [a.uuid]).keys()]).toEqual([b.uuid]);
    expect(withoutUuids(selection, ['other'])).toBe(selection);
  });
});

describe('share and MRN input', () => {
  it('trims the message and leaves out an empty one', () => {
    expect(shareMessage('  see report \n')).toBe('see report');
    expect(shareMessage('   ')).toBeUndefined();
    expect(shareMessage('')).toBeUndefined();
  });
  it('disables Share with no recipients or while sharing', () => {
    expect(canSubmitShare([], [], false)).toBe(false);
    expect(canSubmitShare(['u1'], [], false)).toBe(true);
    expect(canSubmitShare([], ['g1'], false)).toBe(true);
    expect(canSubmitShare(['u1'], [], true)).toBe(false);
  });
  it('disables Edit MRN for empty or blank input', () => {
    expect(canSubmitMrn('', 'OLD', false)).toBe(false);
    expect(canSubmitMrn('   ', 'OLD', false)).toBe(false);
    expect(canSubmitMrn('NEW', 'OLD', false)).toBe(true);
    expect(canSubmitMrn(' OLD ', 'OLD', false)).toBe(false);
    expect(canSubmitMrn('NEW', 'OLD', true)).toBe(false);
  });
  it('normalises tags like the server and skips duplicates', () => {
    expect(normaliseTag('  urgent ', [])).toBe('urgent');
    expect(normaliseTag('  ', [])).toBeNull();
    expect(normaliseTag('urgent', ['urgent'])).toBeNull();
    expect(normaliseTag('x'.repeat(65), [])).toBeNull();
  });
});
