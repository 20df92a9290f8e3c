import { MESSAGES } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';
import { newStudy } from '../../../test/factories';
import { canSubmitSend, parseEmails, sendMethods, sendResult } from './send';

const without = (...denied: string[]) => {
  const s = newStudy();
  for (const p of denied) (s.permissions as Record<string, 0 | 1>)[p] = 0;
  return s;
};

describe('send exams rules', () => {
  it('shows a method only when every selected study grants it, with study_share', () => {
    expect(sendMethods([newStudy()])).toEqual({ connections: true, emails: true, sharecode: true });
    expect(sendMethods([newStudy(), without('study_share_email')])).toEqual({
      connections: true,
      emails: false,
      sharecode: true,
    });
    expect(sendMethods([newStudy(), without('study_share')])).toEqual({
      connections: false,
      emails: false,
      sharecode: false,
    });
    expect(sendMethods([without('study_share_account', 'study_share_share_code')])).toEqual({
      connections: false,
      emails: true,
      sharecode: false,
    });
  });

  it('enables Send only with a recipient, no invalid address, while idle', () => {
    expect(canSubmitSend([], 0, false)).toBe(false);
    expect(canSubmitSend([{ email: 'a@b.org' }], 0, false)).toBe(true);
    expect(canSubmitSend([{ email: 'a@b.org' }], 1, false)).toBe(false);
    expect(canSubmitSend([{ share_code: 'X' }], 0, true)).toBe(false);
  });

  it('splits e-mail addresses and reports the invalid ones', () => {
    expect(parseEmails(' A@b.org, c@d.org;a@b.org  nope ')).toEqual({
      valid: ['a@b.org', 'c@d.org'],
      invalid: ['nope'],
    });
    expect(parseEmails('  ')).toEqual({ valid: [], invalid: [] });
  });

  it('words the banner: single or multiple success, delayed, or a failure with a sub-message', () => {
    const ok = { status: 'OK' as const };
    expect(sendResult(1, [ok], false)).toEqual({ severity: 'success', text: MESSAGES.sendDone });
    expect(sendResult(2, [ok, ok], false)).toEqual({ severity: 'success', text: MESSAGES.sendDoneMany });
    expect(sendResult(1, [ok], true).text).toBe(MESSAGES.sendScheduled);
    const failed = sendResult(2, [ok, { status: 'ERROR', error_type: 'NOT_PERMITTED' }], false);
    expect(failed.severity).toBe('error');
    expect(failed.text).toBe('Failed to send exam(s)');
    expect(failed.detail).toContain('1 of 2 sends went through');
    expect(sendResult(1, [{ status: 'ERROR', error_type: 'WHATEVER' }], false).detail).toBe(
      MESSAGES.studySendFailed,
    );
  });
});
