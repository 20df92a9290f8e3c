import { describe, expect, it } from 'vitest';
import { userSelectionActions } from '@imaging-inbox/contract';
import { ADMIN_CHOICE, roleChoiceOf, roleLabel, roleParams } from './user-role';

describe('user roles on the users page', () => {
  it('labels admins, holders of a role and plain users', () => {
    expect(roleLabel({ role: 'admin', account_role: { uuid: 'r', name: 'Clerk' } })).toBe('Admin');
    expect(roleLabel({ role: 'user', account_role: { uuid: 'r', name: 'Clerk' } })).toBe('Clerk');
    expect(roleLabel({ role: 'user', account_role: null })).toBe('User');
  });

  it('round-trips the picker value into account/user/set parameters', () => {
    expect(roleParams(roleChoiceOf({ role: 'admin', account_role: null }))).toEqual({ role: 'admin' });
    expect(roleParams(ADMIN_CHOICE)).toEqual({ role: 'admin' });
    expect(roleParams(roleChoiceOf({ role: 'user', account_role: { uuid: 'r1', name: 'x' } }))).toEqual({
      role: 'user',
      role_id: 'r1',
    });
    // No role: a blank role_id clears the one held.
    expect(roleParams(roleChoiceOf({ role: 'user', account_role: null }))).toEqual({
      role: 'user',
      role_id: '',
    });
  });

  it('offers Enable only with a disabled user selected and Disable only with an enabled one', () => {
    expect(userSelectionActions([])).toEqual({ enable: false, disable: false });
    expect(userSelectionActions([{ enabled: 1 }])).toEqual({ enable: false, disable: true });
    expect(userSelectionActions([{ enabled: 0 }])).toEqual({ enable: true, disable: false });
    expect(userSelectionActions([{ enabled: 0 }, { enabled: 1 }])).toEqual({ enable: true, disable: true });
  });
});
