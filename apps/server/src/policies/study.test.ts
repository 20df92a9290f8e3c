import type { Permission } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';
import type { Caller, GroupAccess } from './access.js';
import { ALL_PERMISSION_SET } from './access.js';
import { LOCK_TTL_MS } from './study-lock.js';
import type { StudyForPolicy } from './study.js';
import { requireStudy, studyPermissions } from './study.js';
import { scopedToStudy } from './viewer-tokens.js';

const NOW = Date.now();

function caller(groups: Record<string, readonly Permission[]>, admin = false): Caller {
  const access = new Map<string, GroupAccess>(
    Object.entries(groups).map(([ns, permissions]) => [
      ns,
      {
        groupId: ns,
        accountId: 'acc',
        namespaceId: ns,
        name: ns,
        type: 'CLOUD',
        permissions: new Set(permissions),
      },
    ]),
  );
  return {
    user: { uuid: 'me' } as Caller['user'],
    sidHash: 'h',
    ip: '127.0.0.1',
    accounts: new Map([
      ['acc', { accountId: 'acc', admin, permissions: admin ? ALL_PERMISSION_SET : new Set() }],
    ]),
    groups: access,
  };
}

const study = (over: Partial<StudyForPolicy> = {}): StudyForPolicy => ({
  account_id: 'acc',
  namespace_id: 'ns',
  study_uid: '1.2.3',
  is_locked: 0,
  locked_by: null,
  locked_at: null,
  deleted: null,
  ...over,
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
    return 'OK';
  } catch (error) {
    const e = error as { errorType: string; subtype: string | null };
    return `${e.errorType}:${e.subtype}`;
  }
};

describe('the study policy', () => {
  const editor = caller({ ns: ['study_view', 'study_edit', 'study_delete', 'study_download'] });

  it('answers an unseen study like a missing one, or with the refusal a call names', () => {
    expect(refusal(() => requireStudy(editor, undefined))).toBe('NOT_FOUND:study');
    expect(refusal(() => requireStudy(editor, study({ namespace_id: 'other' })))).toBe('NOT_FOUND:study');
    const viewerOnly = caller({ ns: ['study_download'] });
    expect(refusal(() => requireStudy(viewerOnly, study()))).toBe('NOT_FOUND:study');
    const custom = { unseen: () => new Error('x') as never };
    expect(() => requireStudy(editor, undefined, custom)).toThrow('x');
  });

  it('sees, hides or refuses a deleted study as the question asks', () => {
    const deleted = study({ deleted: NOW });
    expect(refusal(() => requireStudy(editor, deleted))).toBe('OK');
    expect(refusal(() => requireStudy(editor, deleted, { deleted: 'hidden' }))).toBe('NOT_FOUND:study');
    const edit = { permissions: ['study_edit'], on: 'group' } as const;
    expect(refusal(() => requireStudy(editor, deleted, edit))).toBe('OK');
    expect(refusal(() => requireStudy(editor, deleted, { ...edit, deleted: 'refused' }))).toBe(
      'NOT_PERMITTED:study_edit',
    );
    // The study's permissions object keeps only view and delete on a deleted study.
    expect(refusal(() => requireStudy(editor, deleted, { permissions: ['study_download'] }))).toBe(
      'NOT_PERMITTED:study_download',
    );
    expect(refusal(() => requireStudy(editor, deleted, { permissions: ['study_delete'] }))).toBe('OK');
  });

  it("narrows by another user's live lock, and answers LOCKED where the call asks", () => {
    const locked = study({ is_locked: 1, locked_by: 'someone', locked_at: NOW });
    expect(studyPermissions(editor, locked).study_edit).toBe(0);
    expect(refusal(() => requireStudy(editor, locked, { permissions: ['study_edit'] }))).toBe(
      'NOT_PERMITTED:study_edit',
    );
    const groupEdit = { permissions: ['study_edit'], on: 'group', unlocked: true } as const;
    expect(refusal(() => requireStudy(editor, locked, groupEdit))).toBe('LOCKED:null');
    const lapsed = study({ is_locked: 1, locked_by: 'someone', locked_at: NOW - LOCK_TTL_MS - 1 });
    expect(refusal(() => requireStudy(editor, lapsed, groupEdit))).toBe('OK');
    const mine = study({ is_locked: 1, locked_by: 'me', locked_at: NOW });
    expect(refusal(() => requireStudy(editor, mine, groupEdit))).toBe('OK');
  });

  it('gives each state of a page its own flags, shared by the studies in that state', () => {
    const plain = [study(), study({ study_uid: '1.2.3.99' })];
    const locked = study({ is_locked: 1, locked_by: 'someone', locked_at: NOW });
    const deleted = study({ deleted: NOW });
    const [a, b] = plain.map((s) => studyPermissions(editor, s));
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a!.study_edit).toBe(1);
    expect(studyPermissions(editor, locked).study_edit).toBe(0);
    expect(studyPermissions(editor, locked).study_download).toBe(1);
    expect(studyPermissions(editor, deleted).study_download).toBe(0);
    expect(studyPermissions(editor, deleted).study_delete).toBe(1);
    // Another caller's grant is its own: a viewer of the same group sees no edit.
    const viewer = caller({ ns: ['study_view'] });
    expect(studyPermissions(viewer, plain[0]!).study_edit).toBe(0);
    expect(studyPermissions(editor, plain[0]!).study_edit).toBe(1);
  });

  it('lets a viewer token reach its own study only', () => {
    const token = scopedToStudy(caller({ ns: ['study_view'], other: ['study_view'] }), {
      namespaceId: 'ns',
      studyUid: '1.2.3',
    });
    expect(refusal(() => requireStudy(token, study()))).toBe('OK');
    expect(refusal(() => requireStudy(token, study({ study_uid: '9.9' })))).toBe('NOT_FOUND:study');
    expect(refusal(() => requireStudy(token, study({ namespace_id: 'other' })))).toBe('NOT_FOUND:study');
  });

  it("keeps breaking a lock to the account's admins", () => {
    expect(refusal(() => requireStudy(editor, study(), { accountAdmin: true }))).toBe(
      'NOT_PERMITTED:account admin',
    );
    expect(
      refusal(() => requireStudy(caller({ ns: ['study_view'] }, true), study(), { accountAdmin: true })),
    ).toBe('OK');
  });
});
