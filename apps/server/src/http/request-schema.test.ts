import { flagParam, intParam, listParam, optionalText, requiredText } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError } from '../domain/errors.js';
import { parseRequest } from './request-schema.js';

const schema = z.object({
  uuid: requiredText(),
  type: requiredText(),
  message: optionalText(),
  rows: intParam(50, 1, 500),
  'filter.action.in': listParam(),
  star: flagParam(),
});

function refusal(params: Record<string, string>) {
  try {
    parseRequest(schema, params);
  } catch (error) {
    if (error instanceof DomainError) return [error.errorType, error.subtype, error.data];
    throw error;
  }
  throw new Error('accepted');
}

describe('parseRequest', () => {
  it('gives the handler trimmed, typed values and the defaults', () => {
    expect(
      parseRequest(schema, { uuid: ' a ', type: 'user', 'filter.action.in': '["SHARE"]', sid: 'x' }),
    ).toEqual({
      uuid: 'a',
      type: 'user',
      message: undefined,
      rows: 50,
      'filter.action.in': ['SHARE'],
      star: undefined,
    });
    expect(
      parseRequest(schema, { uuid: 'a', type: 'b', rows: '7', star: 'true', message: ' ' }),
    ).toMatchObject({
      rows: 7,
      star: 1,
      message: undefined,
    });
  });

  it('answers MISSING_FIELDS naming every absent or blank required parameter, as required() did', () => {
    expect(refusal({})).toEqual(['MISSING_FIELDS', 'uuid,type', ['uuid', 'type']]);
    expect(refusal({ uuid: '  ', type: 'user', rows: 'x' })).toEqual(['MISSING_FIELDS', 'uuid', ['uuid']]);
  });

  it('answers INVALID_FIELD with the parameter and why, as optionalInt(), stringList() and flag() did', () => {
    const base = { uuid: 'a', type: 'b' };
    expect(refusal({ ...base, rows: '501' })).toEqual([
      'INVALID_FIELD',
      'rows',
      'must be an integer from 1 to 500',
    ]);
    expect(refusal({ ...base, rows: '1.5' })).toEqual([
      'INVALID_FIELD',
      'rows',
      'must be an integer from 1 to 500',
    ]);
    expect(refusal({ ...base, 'filter.action.in': '[oops' })).toEqual([
      'INVALID_FIELD',
      'filter.action.in',
      'must be a JSON array',
    ]);
    expect(refusal({ ...base, 'filter.action.in': '[{}]' })).toEqual([
      'INVALID_FIELD',
      'filter.action.in',
      'must be a JSON array of strings',
    ]);
    expect(refusal({ ...base, star: 'maybe' })).toEqual(['INVALID_FIELD', 'flag', 'must be 0 or 1']);
  });
});
