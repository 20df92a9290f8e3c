import { describe, expect, it } from 'vitest';
import { newStudy } from '../../../test/factories';
import { studyStatusIcons } from './study-status';

const push = (status: string, updated = '2024-01-01T00:00:00Z') => ({
  status,
  updated,
  destination_name: 'PACS',
});

describe('studyStatusIcons', () => {
  it('shows nothing for a plain study', () => {
    expect(studyStatusIcons(newStudy())).toEqual([]);
  });
  it('marks completed pushes as processed, using the latest status', () => {
    const study = newStudy({ study_push_status: [push('F', '2024-01-01'), push('S', '2024-01-02')] });
    expect(studyStatusIcons(study)).toEqual(['processed']);
  });
  it('marks a study whose retrieve from a PACS failed part-way', () => {
    expect(studyStatusIcons(newStudy({ study_status: 'INCOMPLETE' }))).toEqual(['incomplete']);
    expect(studyStatusIcons(newStudy({ study_status: 'NEW' }))).toEqual([]);
  });
  it('marks failed pushes', () => {
    expect(studyStatusIcons(newStudy({ study_push_status: [push('F')] }))).toEqual(['failed']);
  });
  it('marks rejected studies and hides their nomination', () => {
    const study = newStudy({
      customfields: [
        { name: 'is_process_form_rejected', value: '1' },
        { name: 'nominated_at', value: '2024-01-01T10:00:00Z' },
      ],
    });
    expect(studyStatusIcons(study)).toEqual(['rejected']);
  });
  it('marks nominations that are neither completed nor rejected', () => {
    const nominated = newStudy({ customfields: [{ name: 'nominated_at', value: '2024-01-01T10:00:00Z' }] });
    expect(studyStatusIcons(nominated)).toEqual(['nominated']);
    expect(studyStatusIcons({ ...nominated, study_push_status: [push('S')] })).toEqual(['processed']);
    expect(
      studyStatusIcons({
        ...nominated,
        customfields: [...nominated.customfields, { name: 'is_process_form_rejected', value: '0' }],
      }),
    ).toEqual(['nominated']);
  });
  it('ignores an account-defined field that shares a workflow field name', () => {
    const study = newStudy({
      customfields: [{ uuid: 'cf-1', name: 'nominated_at', value: '2024-01-01T10:00:00Z' }],
    });
    expect(studyStatusIcons(study)).toEqual([]);
  });
  it("reads a nominator's study's PACS status from its copy's: nominated, queued, sent, failed", () => {
    const nominated = (status: string) =>
      newStudy({
        customfields: [
          { name: 'nominated_at', value: '2024-01-01T10:00:00Z' },
          { name: 'nomination_push_status', value: status },
        ],
      });
    expect(studyStatusIcons(nominated(''))).toEqual(['nominated']);
    expect(studyStatusIcons(nominated('I'))).toEqual(['queued', 'nominated']);
    expect(studyStatusIcons(nominated('P'))).toEqual(['queued', 'nominated']);
    expect(studyStatusIcons(nominated('S'))).toEqual(['processed']);
    expect(studyStatusIcons(nominated('F'))).toEqual(['failed', 'nominated']);
    // Its own pushes (none here) do not hide its copy's status.
    expect(studyStatusIcons({ ...nominated('S'), study_push_status: [push('F')] })).toEqual(['processed']);
  });
  it('marks a queued push', () => {
    expect(studyStatusIcons(newStudy({ study_push_status: [push('I')] }))).toEqual(['queued']);
  });
});
