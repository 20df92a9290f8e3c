import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { AccountAnswer, AccountSso, SessionUser } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { SsoAdminPage } from './SsoAdminPage';

const me = { uuid: 'u1', name: 'Admin', admin: 1, sysadmin: 0 } as SessionUser;
const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;
const REDIRECT = 'https://inbox.example/api/v3/session/sso/callback';

const stored: AccountSso = {
  account_id: 'acc',
  type: 'oidc',
  enabled: 1,
  display_name: 'Hospital ID',
  issuer: 'https://id.hospital.org',
  client_id: 'inbox',
  client_secret_set: 1,
  scopes: 'openid email profile',
  claim_email: 'email',
  claim_first: 'given_name',
  claim_last: 'family_name',
  claim_roles: null,
  role_map: [],
  domains: ['hospital.org'],
  jit: 0,
  default_role_id: null,
  require_sso: 0,
  break_glass_email: null,
  redirect_uri: REDIRECT,
  entry_point: null,
  idp_certs: [],
};
const SAML_SP = {
  entity_id: 'https://inbox.example/api/v3/session/sso/saml/metadata?account_id=acc',
  acs_url: 'https://inbox.example/api/v3/session/sso/saml/acs',
  metadata_url: 'https://inbox.example/api/v3/session/sso/saml/metadata?account_id=acc',
};

function renderPage() {
  return renderWithRouter(
    <InboxContext.Provider value={{ user: me, account, permissions: permissionFlags('all'), groups: [] }}>
      <SsoAdminPage />
    </InboxContext.Provider>,
  );
}

describe('SsoAdminPage', () => {
  const sets: URLSearchParams[] = [];
  let refuse: [number, unknown] | null = null;

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    sets.length = 0;
    refuse = null;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'account/sso/get': () => [200, { status: 'OK', sso: stored, redirect_uri: REDIRECT, saml: SAML_SP }],
        'role/list': () => [
          200,
          { status: 'OK', roles: [{ uuid: 'r1', name: 'Clerk', permissions: [], holders: 1 }] },
        ],
        'account/sso/set': (body) => {
          sets.push(body);
          if (refuse) return refuse;
          const sso = { ...stored, display_name: body.get('display_name') ?? '' };
          return [200, { status: 'OK', sso, redirect_uri: REDIRECT, saml: SAML_SP }];
        },
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('shows the stored provider, keeps the secret when left empty, and saves', async () => {
    renderPage();
    const name = await screen.findByLabelText<HTMLInputElement>('Name shown on the sign-in page');
    expect(name.value).toBe('Hospital ID');
    expect(screen.getByText(REDIRECT)).toBeTruthy();
    expect(screen.getByText('A secret is set: leave empty to keep it')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Client secret').value).toBe('');
    fireEvent.change(name, { target: { value: 'Hospital sign-in' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    const body = sets[0]!;
    expect(body.get('account_id')).toBe('acc');
    expect(body.get('type')).toBe('oidc');
    expect(body.get('display_name')).toBe('Hospital sign-in');
    expect(body.get('issuer')).toBe('https://id.hospital.org');
    expect(body.has('client_secret')).toBe(false);
    expect(body.get('domains')).toBe('hospital.org');
    expect(body.get('require_sso')).toBe('0');
  });

  it('shows the server’s refusal on the field it names, and sends a typed secret', async () => {
    refuse = [
      412,
      {
        status: 'ERROR',
        error_type: 'INVALID_FIELD',
        error_subtype: 'break_glass_email',
        error_data: 'must be an admin of this account',
      },
    ];
    renderPage();
    fireEvent.change(await screen.findByLabelText('Client secret'), { target: { value: 's3cret' } });
    fireEvent.click(screen.getByLabelText('Require single sign-on (no password sign-in)'));
    fireEvent.change(screen.getByLabelText('Admin who may still sign in with a password (e-mail)'), {
      target: { value: 'clerk@demo.local' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('must be an admin of this account');
    expect(screen.getByText('The settings were not saved: check the fields marked.')).toBeTruthy();
    const field = screen.getByLabelText('Admin who may still sign in with a password (e-mail)');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(sets[0]!.get('client_secret')).toBe('s3cret');
    expect(sets[0]!.get('require_sso')).toBe('1');
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
