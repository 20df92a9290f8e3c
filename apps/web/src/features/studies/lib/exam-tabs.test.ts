import { describe, expect, it } from 'vitest';
import { newStudy } from '../../../test/factories';
import { examTabs } from './exam-tabs';

const without = (...denied: string[]) => {
  const s = newStudy();
  for (const p of denied) (s.permissions as Record<string, 0 | 1>)[p] = 0;
  return s;
};

describe('examTabs', () => {
  it('opens Summary for one cloud study', () => {
    const r = examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [newStudy()] });
    expect(r.defaultTab).toBe('Summary');
    expect(r.tabs).toContain('Downloads');
    expect(r.tabs).toContain('Share');
    expect(r.tabs).toContain('Send exams');
  });
  it('gives gatekeeper groups their six tabs and opens Process', () => {
    expect(examTabs({ groupType: 'GATEKEEPER', state: 'Nominations', studies: [newStudy()] })).toEqual({
      tabs: ['Summary', 'Exchange', 'Viewer', 'Downloads', 'Attachments', 'Process'],
      defaultTab: 'Process',
    });
  });
  it('opens Exchange for Shared w/ group and Downloads for a multi-selection', () => {
    expect(examTabs({ groupType: 'CLOUD', state: 'Shared w/ group', studies: [newStudy()] }).defaultTab).toBe(
      'Exchange',
    );
    expect(
      examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [newStudy(), newStudy()] }).defaultTab,
    ).toBe('Downloads');
  });
  it('needs study_download plus study_download_iso for Downloads', () => {
    expect(
      examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [without('study_download_iso')] }).tabs,
    ).not.toContain('Downloads');
  });
  it('needs study_share plus user or group sharing for Share', () => {
    const tabs = examTabs({
      groupType: 'CLOUD',
      state: 'Inbox',
      studies: [without('study_share_user', 'study_share_group')],
    }).tabs;
    expect(tabs).not.toContain('Share');
    expect(tabs).toContain('Send exams');
  });
  it('needs study_share plus one send method for Send exams', () => {
    const tabs = examTabs({
      groupType: 'CLOUD',
      state: 'Inbox',
      studies: [without('study_share_account', 'study_share_email', 'study_share_share_code')],
    }).tabs;
    expect(tabs).not.toContain('Send exams');
  });
  it('allows a bulk action only if every selected study grants it', () => {
    const tabs = examTabs({
      groupType: 'LIBRARY',
      state: 'Inbox',
      studies: [newStudy(), without('study_delete')],
    }).tabs;
    expect(tabs).not.toContain('Delete exams');
    expect(tabs).toContain('Downloads');
  });
});
