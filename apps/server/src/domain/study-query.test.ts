import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { likePattern } from '../repositories/study-search.sql.js';
import { studySearchRequest } from '@imaging-inbox/contract';
import { buildStudyQuery } from './study-query.js';

const parseStudyQuery = (params: Record<string, string>) => buildStudyQuery(studySearchRequest.parse(params));

describe('buildStudyQuery', () => {
  it('defaults to 50 rows, page 1, newest upload first', () => {
    const q = parseStudyQuery({});
    expect(q).toMatchObject({
      rows: 50,
      page: 1,
      deleted: false,
      sort: [{ field: 'created', direction: 'desc' }],
    });
  });

  it('reads literal dotted filter keys', () => {
    const q = parseStudyQuery({
      'filter.patient_name.like': 'DOE%',
      'filter.accession_number.equals': 'A1',
      'filter.modality.in': '["ct","MR"]',
      'filter.study_date.ge': '2026-01-01',
      'filter.star.equals': '1',
      'filter.customfield-priority.equals': 'Routine',
      sort_by: 'customfield-nominated_at-asc',
      'page.rows': '10',
      'page.number': '3',
    });
    expect(q.text).toEqual([
      { kind: 'like', column: 'patient_name', pattern: 'DOE%' },
      { kind: 'equals', column: 'accession_number', value: 'A1' },
    ]);
    expect(q.modalities).toEqual(['CT', 'MR']);
    expect(q.studyDate).toEqual({ ge: '20260101' });
    expect(q.star).toBe(1);
    expect(q.customFields).toEqual([{ name: 'priority', op: 'equals', values: ['Routine'] }]);
    expect(q.sort).toEqual([{ field: 'customfield', customField: 'nominated_at', direction: 'asc' }]);
    expect([q.rows, q.page]).toEqual([10, 3]);
  });

  it('names an account custom field by its uuid in filters and sorts', () => {
    const uuid = '0b7c5a9e-4f1d-4c7a-9d2e-1a2b3c4d5e6f';
    const q = parseStudyQuery({
      [`filter.customfield-${uuid}.equals`]: 'Urgent',
      sort_by: `customfield-${uuid}-desc,created-asc`,
    });
    expect(q.customFields).toEqual([{ name: uuid, op: 'equals', values: ['Urgent'] }]);
    expect(q.sort).toEqual([
      { field: 'customfield', customField: uuid, direction: 'desc' },
      { field: 'created', direction: 'asc' },
    ]);
  });

  it('ignores empty values but refuses unknown fields and bad values', () => {
    expect(parseStudyQuery({ 'filter.patient_name.like': '' }).text).toEqual([]);
    for (const params of <Record<string, string>[]>[
      { 'filter.password.equals': 'x' },
      { 'filter.patient_name.gt': 'x' },
      { 'filter.star.equals': 'maybe' },
      { sort_by: 'uuid; drop table studies-asc' },
      { 'filter.customfield-bad name.equals': 'x' },
    ]) {
      expect(() => parseStudyQuery(params), JSON.stringify(params)).toThrow(DomainError);
    }
    expect(studySearchRequest.safeParse({ 'page.rows': '100000' }).success).toBe(false);
  });
});

describe('likePattern', () => {
  it('keeps % as the wildcard and escapes _ and backslash', () => {
    expect(likePattern('SMITH%JO_N\\')).toBe('SMITH%JO\\_N\\\\');
  });
});
