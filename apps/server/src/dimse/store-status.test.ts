import { describe, expect, it } from 'vitest';
import { DomainError, internal, invalidField, tooLarge } from '../domain/errors.js';
import { STORE_STATUS, storeFailureOf } from './store-status.js';

describe('storeFailureOf', () => {
  it('answers a refused instance with "cannot understand" and the error in the comment', () => {
    expect(storeFailureOf(new DomainError('TAG_NOT_FOUND', 'StudyInstanceUID'))).toEqual({
      status: STORE_STATUS.cannotUnderstand,
      errorComment: 'TAG_NOT_FOUND: StudyInstanceUID',
    });
    expect(storeFailureOf(new DomainError('INVALID_DICOM'))).toEqual({
      status: STORE_STATUS.cannotUnderstand,
      errorComment: 'INVALID_DICOM: ',
    });
    expect(storeFailureOf(tooLarge('at most 10 bytes')).status).toBe(STORE_STATUS.cannotUnderstand);
    expect(storeFailureOf(invalidField('PatientID', 'too long')).status).toBe(STORE_STATUS.cannotUnderstand);
  });

  it('answers a server failure with "out of resources" so the sender may retry', () => {
    const outOfResources = {
      status: STORE_STATUS.outOfResources,
      errorComment: 'could not store the instance',
    };
    expect(storeFailureOf(internal('stored file missing'))).toEqual(outOfResources);
    expect(storeFailureOf(new Error('ENOSPC: no space left on device'))).toEqual(outOfResources);
    expect(storeFailureOf('not even an error')).toEqual(outOfResources);
  });
});
