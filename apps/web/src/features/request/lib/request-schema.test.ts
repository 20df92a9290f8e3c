import { describe, expect, it } from 'vitest';
import { MESSAGES, PROFILE_MESSAGES } from '@imaging-inbox/contract';
import { REQUEST_STUDY_DEFAULTS, linkAddParams, requestStudySchema } from './request-schema';

const valid = {
  ...REQUEST_STUDY_DEFAULTS,
  email: 'sender@hospital.example',
  maximumHits: '3',
  maximumDuration: '1440',
};

/** The first message per field, as the form shows it. */
function messages(values: typeof valid): Record<string, string> {
  const result = requestStudySchema.safeParse(values);
  const first: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) first[issue.path.map(String).join('.')] ??= issue.message;
  return first;
}

describe('request study form rules (SPEC.md section 5)', () => {
  it('accepts a filled form; password, description and notify are optional', () => {
    expect(messages(valid)).toEqual({});
  });

  it('requires a valid email', () => {
    expect(messages({ ...valid, email: '' }).email).toBe(MESSAGES.emailRequired);
    expect(messages({ ...valid, email: '  ' }).email).toBe(MESSAGES.emailRequired);
    expect(messages({ ...valid, email: 'nope' }).email).toBe('Invalid email');
  });

  it.each(['', '0', '-1', '1.5', 'abc', '1e3'])('refuses %j as a count', (raw) => {
    expect(messages({ ...valid, maximumHits: raw }).maximumHits).toBe('Must be a number greater than 0');
    expect(messages({ ...valid, maximumDuration: raw }).maximumDuration).toBe(
      'Must be a number greater than 0',
    );
  });

  it('refuses counts of 2147483647 and above', () => {
    expect(messages({ ...valid, maximumHits: '2147483647' }).maximumHits).toBe('Maximum value exceeded');
    expect(messages({ ...valid, maximumDuration: '99999999999' }).maximumDuration).toBe(
      'Maximum value exceeded',
    );
    expect(messages({ ...valid, maximumHits: '2147483646' })).toEqual({});
  });

  it('maps the form onto link/add parameters', () => {
    expect(
      linkAddParams('ns-1', { ...valid, notifyOfLinkUse: true, studyDescription: ' CT ', linkPassword: '' }),
    ).toEqual({
      namespace_id: 'ns-1',
      action: 'STUDY_UPLOAD',
      email: 'sender@hospital.example',
      max_hits: 3,
      minutes_alive: 1440,
      notify: 1,
      password: undefined,
      message: 'CT',
      mobile_phone: undefined,
      share_description: undefined,
    });
  });

  it('takes an empty or international mobile phone and carries it with the share description', () => {
    expect(messages({ ...valid, mobilePhone: '+1 (415) 555-2671' })).toEqual({});
    for (const bad of ['4155552671', '+0123', 'phone', '+1234567890123456']) {
      expect(messages({ ...valid, mobilePhone: bad }).mobilePhone).toBe(PROFILE_MESSAGES.phoneInvalid);
    }
    expect(
      linkAddParams('ns-1', {
        ...valid,
        mobilePhone: ' +1 415-555-2671 ',
        shareDescription: ' MRI of the knee ',
      }),
    ).toMatchObject({ mobile_phone: '+14155552671', share_description: 'MRI of the knee' });
  });
});
