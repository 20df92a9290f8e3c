import { describe, expect, it } from 'vitest';
import {
  DomainError,
  internal,
  invalidField,
  missingFields,
  notAcceptable,
  notFound,
  notPermitted,
  sessionExpired,
  tooLarge,
} from '../domain/errors.js';
import { errorBody, httpStatusOf } from './errors.js';

const API = '/api/v3/study/get';
const DICOMWEB = '/dicomweb/studies';

describe('httpStatusOf', () => {
  it.each([
    ['a refusal', notFound('study'), 412],
    ['a permission refusal', notPermitted('study_edit'), 412],
    ['missing fields', missingFields(['uuid']), 412],
    ['an invalid field', invalidField('page.rows', 'must be an integer'), 412],
    ['a password-reset link that expired', new DomainError('EXPIRED', 'reset link has expired'), 412],
    ['an expired session', sessionExpired('SID not found in session'), 401],
    ['a file over the limit', tooLarge('at most 10 bytes'), 413],
    ['FILE_TOO_LARGE thrown by type alone', new DomainError('FILE_TOO_LARGE', 'too many pixels'), 413],
    ['an upload chunk already running', new DomainError('UPLOAD_CHUNK_IN_PROGRESS', 'busy'), 409],
    ['too many attempts', new DomainError('RATE_LIMITED', 'later'), 429],
    ['a media type that cannot be rendered', notAcceptable('INVALID_FIELD', 'accept'), 406],
    [
      'a body in the wrong media type',
      new DomainError('INVALID_FIELD', 'content-type', null, 'unsupported_media'),
      415,
    ],
    ['a lost stored file', internal('stored file missing'), 500],
  ])('answers %s on api/v3 with its status', (_what, error, status) => {
    expect(httpStatusOf(error, API)).toBe(status);
  });

  it('gives DICOMweb clients plain statuses for refusals', () => {
    expect(httpStatusOf(notFound('namespace'), DICOMWEB)).toBe(404);
    expect(httpStatusOf(notPermitted('study_upload'), DICOMWEB)).toBe(403);
    expect(httpStatusOf(missingFields(['namespace']), DICOMWEB)).toBe(400);
    expect(httpStatusOf(invalidField('boundary'), DICOMWEB)).toBe(400);
    expect(httpStatusOf(new DomainError('FILE_CONTENT_EMPTY', 'no parts'), DICOMWEB)).toBe(400);
  });

  it('keeps the other kinds on DICOMweb as they are', () => {
    expect(httpStatusOf(sessionExpired('SID not found in session'), DICOMWEB)).toBe(401);
    expect(httpStatusOf(notAcceptable('INVALID_DICOM', 'video'), DICOMWEB)).toBe(406);
    expect(httpStatusOf(tooLarge('at most 10 bytes'), DICOMWEB)).toBe(413);
    expect(httpStatusOf(internal('stored file missing'), DICOMWEB)).toBe(500);
  });
});

describe('errorBody', () => {
  it('carries the type, sub-type and data of the domain error', () => {
    expect(errorBody(missingFields(['uuid', 'name']))).toEqual({
      status: 'ERROR',
      error_type: 'MISSING_FIELDS',
      error_subtype: 'uuid,name',
      error_data: ['uuid', 'name'],
    });
    expect(errorBody(invalidField('page.rows', 'must be an integer from 1 to 5000'))).toEqual({
      status: 'ERROR',
      error_type: 'INVALID_FIELD',
      error_subtype: 'page.rows',
      error_data: 'must be an integer from 1 to 5000',
    });
    expect(errorBody(new DomainError('LOCKED'))).toEqual({
      status: 'ERROR',
      error_type: 'LOCKED',
      error_subtype: null,
      error_data: null,
    });
  });
});
