import { describe, expect, it } from 'vitest';
import { newStudy } from '../../../test/factories';
import { EXAM_TABS } from '../exam-tab-registry';
import { examTabs as select, type ExamTabContext } from './exam-tabs';

/** The labels the registry shows for `ctx`, and the label of the tab that opens first. */
const examTabs = (ctx: ExamTabContext) => {
  const { tabs, defaultTab } = select(ctx, EXAM_TABS);
  return { tabs: tabs.map((tab) => tab.label), defaultTab: defaultTab?.label };
};

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
  it('gives gatekeeper groups Summary, Exchange, Viewer, Downloads, Attachments, Process, opening Process', () => {
    expect(examTabs({ groupType: 'GATEKEEPER', state: 'Nominations', studies: [newStudy()] })).toEqual({
      tabs: ['Summary', 'Exchange', 'Viewer', 'Downloads', 'Attachments', 'Process'],
      defaultTab: 'Process',
    });
  });
  it('lists the cloud tabs in registry order, Exchange only for Shared w/ group', () => {
    expect(examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [newStudy()] }).tabs).toEqual([
      'Summary',
      'Viewer',
      'Downloads',
      'Share',
      // PACS: cloud groups, study_push or study_share (SPEC.md section 2's order).
      'PACS',
      'Edit MRN',
      'Send exams',
      'Attachments',
      'Delete exams',
      'Reports',
    ]);
    expect(
      examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [without('study_view')] }).tabs,
    ).not.toContain('Reports');
    expect(
      examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [newStudy()], permissions: { order_view: 1 } })
        .tabs,
    ).toContain('Orders');
    expect(examTabs({ groupType: 'CLOUD', state: 'Shared w/ group', studies: [newStudy()] }).tabs).toContain(
      'Exchange',
    );
  });
  it('has no Search Order tab: it is a step of Process', () => {
    for (const label of ['Search Order']) {
      expect(EXAM_TABS.map((tab) => tab.label)).not.toContain(label);
    }
  });
  it('gives PACS to cloud studies whose group grants study_push or study_share (to nominate)', () => {
    expect(
      examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [without('study_push', 'study_share')] }).tabs,
    ).not.toContain('PACS');
    expect(examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [without('study_push')] }).tabs).toContain(
      'PACS',
    );
    expect(examTabs({ groupType: 'LIBRARY', state: 'Inbox', studies: [newStudy()] }).tabs).not.toContain(
      'PACS',
    );
  });
  it('keeps Edit MRN from a study that came from a share', () => {
    const shared = { ...newStudy(), source: 'share' };
    expect(examTabs({ groupType: 'CLOUD', state: 'Shared', studies: [shared] }).tabs).not.toContain(
      'Edit MRN',
    );
  });
  it('gives a multi-selection only the bulk actions', () => {
    expect(examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [newStudy(), newStudy()] }).tabs).toEqual([
      'Downloads',
      'Share',
      'Send exams',
      'Delete exams',
    ]);
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
  it('gives a cloud exam the Pending Requests tab of its group, last as the spec lists it, only with link_edit', () => {
    const withLink = { link_edit: 1 as const };
    const tabs = (ctx: Partial<ExamTabContext>) =>
      examTabs({ groupType: 'CLOUD', state: 'Inbox', studies: [newStudy()], ...ctx }).tabs;
    expect(tabs({ permissions: withLink }).at(-1)).toBe('Pending Requests');
    expect(tabs({ permissions: { ...withLink, order_view: 1 } }).slice(-2)).toEqual([
      'Orders',
      'Pending Requests',
    ]);
    expect(
      tabs({ state: 'Shared', studies: [newStudy({ source: 'share' })], permissions: withLink }),
    ).toContain('Pending Requests');
    // Who may not make or revoke requests does not see them; nor a multi-selection, nor other group types.
    expect(tabs({})).not.toContain('Pending Requests');
    expect(tabs({ permissions: { link_edit: 0 } })).not.toContain('Pending Requests');
    expect(tabs({ studies: [newStudy(), newStudy()], permissions: withLink })).not.toContain(
      'Pending Requests',
    );
    for (const groupType of ['GATEKEEPER', 'LIBRARY', 'ALL'] as const)
      expect(tabs({ groupType, permissions: withLink })).not.toContain('Pending Requests');
  });
});
