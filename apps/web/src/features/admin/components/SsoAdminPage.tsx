import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  TextField,
  Typography,
} from '@mui/material';
import type { AccountSso, SamlServiceProvider, SsoType } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useRoles } from '../api/roles';
import { useAccountSso, useSetAccountSso } from '../api/sso';

/** The form's fields, as typed (flags as booleans, lists as the text the server parses). */
interface SsoForm {
  type: SsoType;
  enabled: boolean;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  claim_email: string;
  claim_first: string;
  claim_last: string;
  claim_roles: string;
  role_map: string;
  domains: string;
  jit: boolean;
  default_role_id: string;
  require_sso: boolean;
  break_glass_email: string;
  /** SAML: pasted metadata (sent once, read by the server), or the sign-on URL and certificate. */
  idp_metadata: string;
  entry_point: string;
  idp_cert: string;
}

/** What each protocol names its attributes by default (the server's defaults). */
const CLAIM_DEFAULTS: Record<SsoType, Pick<SsoForm, 'claim_email' | 'claim_first' | 'claim_last'>> = {
  oidc: { claim_email: 'email', claim_first: 'given_name', claim_last: 'family_name' },
  saml: {
    claim_email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    claim_first: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    claim_last: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  },
};

function formOf(sso: AccountSso | null): SsoForm {
  const type = sso?.type ?? 'oidc';
  return {
    type,
    enabled: sso ? sso.enabled === 1 : true,
    display_name: sso?.display_name ?? '',
    issuer: sso?.issuer ?? '',
    client_id: sso?.client_id ?? '',
    // Write-only: the server answers only whether one is stored; empty keeps it.
    client_secret: '',
    scopes: sso?.scopes ?? 'openid email profile',
    claim_email: sso?.claim_email ?? CLAIM_DEFAULTS[type].claim_email,
    claim_first: sso?.claim_first ?? CLAIM_DEFAULTS[type].claim_first,
    claim_last: sso?.claim_last ?? CLAIM_DEFAULTS[type].claim_last,
    claim_roles: sso?.claim_roles ?? '',
    role_map: sso?.role_map.length ? JSON.stringify(sso.role_map) : '',
    domains: sso?.domains.join(', ') ?? '',
    jit: sso?.jit === 1,
    default_role_id: sso?.default_role_id ?? '',
    require_sso: sso?.require_sso === 1,
    break_glass_email: sso?.break_glass_email ?? '',
    idp_metadata: '',
    entry_point: sso?.entry_point ?? '',
    idp_cert: '',
  };
}

/**
 * Another protocol chosen: the provider's identifiers mean other things there (an OIDC client ID is
 * no SAML entity ID), so they go back to what is stored for that protocol, or blank (the server's
 * defaults); attribute names still at the old protocol's defaults take the new one's.
 */
function switchType(form: SsoForm, type: SsoType, stored: AccountSso | null): SsoForm {
  const kept = stored?.type === type ? formOf(stored) : undefined;
  const next = {
    ...form,
    type,
    issuer: kept?.issuer ?? '',
    client_id: kept?.client_id ?? '',
    entry_point: kept?.entry_point ?? '',
  };
  for (const key of ['claim_email', 'claim_first', 'claim_last'] as const) {
    if (form[key] === CLAIM_DEFAULTS[form.type][key] || !form[key]) next[key] = CLAIM_DEFAULTS[type][key];
  }
  return next;
}

/** A value the identity provider's admin copies, on one line of its own. */
function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      <Box component="code" sx={{ wordBreak: 'break-all', userSelect: 'all' }}>
        {value}
      </Box>
    </Box>
  );
}

/**
 * What a SAML identity provider's admin registers: this service's entity ID, its ACS (reply) URL
 * and its metadata URL, shown before anything is saved too.
 */
function SamlRegistration({ sp }: { sp: SamlServiceProvider }) {
  const { t } = useTranslation();
  return (
    <Alert severity="info">
      <Stack spacing={1}>
        <span>
          {t('Members sign in with the hospital’s SAML 2.0 identity provider. Register these there:')}
        </span>
        <CopyValue label={t('Identifier (entity ID)')} value={sp.entity_id} />
        <CopyValue label={t('Reply URL (Assertion Consumer Service, HTTP-POST)')} value={sp.acs_url} />
        <CopyValue label={t('Metadata URL (answers once SAML is saved)')} value={sp.metadata_url} />
      </Stack>
    </Alert>
  );
}

/** Longer bounds than the default 512 characters (the server's). */
const MAX_LENGTH: Partial<Record<keyof SsoForm, number>> = {
  role_map: 8000,
  idp_metadata: 256 * 1024,
  idp_cert: 32 * 1024,
};

/** The fields typed as text. */
type TextKey = { [K in keyof SsoForm]: SsoForm[K] extends string ? K : never }[keyof SsoForm];

/** The fields a refusal names: INVALID_FIELD names one, MISSING_FIELDS a comma-separated list. */
function refusedFields(error: unknown): Map<string, string | undefined> {
  const body = errorBody(error);
  const fields = new Map<string, string | undefined>();
  if (!body?.error_subtype) return fields;
  const why = typeof body.error_data === 'string' ? body.error_data : undefined;
  for (const field of body.error_subtype.split(',')) fields.set(field.trim(), why);
  return fields;
}

/**
 * Administration → Single sign-on: the account's OpenID Connect provider (decision 0066) or SAML 2.0
 * identity provider (decision 0070), read and saved whole through account/sso/get|set. Only account
 * admins see it; the server checks again.
 */
export function SsoAdminPage() {
  const { t } = useTranslation();
  const { account } = useInbox();
  const answer = useAccountSso(account.uuid);
  const roles = useRoles(account.uuid);
  const save = useSetAccountSso();
  const [form, setForm] = useState<SsoForm | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (answer.data && form === null) setForm(formOf(answer.data.sso));
  }, [answer.data, form]);

  if (answer.isError && !answer.data) {
    return (
      <PagePanel title={t('Single sign-on')}>
        <UnexpectedErrorAlert />
      </PagePanel>
    );
  }
  if (!answer.data || !form) {
    return (
      <PagePanel title={t('Single sign-on')}>
        <Loading />
      </PagePanel>
    );
  }
  const secretSet = answer.data.sso?.client_secret_set === 1;
  const refused = refusedFields(save.error);
  const change = <K extends keyof SsoForm>(key: K, value: SsoForm[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const text = (
    key: TextKey,
    label: string,
    extra: { helper?: string; type?: string; rows?: number } = {},
  ) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => change(key, e.target.value)}
      fullWidth
      type={extra.type}
      multiline={extra.rows !== undefined}
      minRows={extra.rows}
      maxRows={extra.rows === undefined ? undefined : extra.rows * 2}
      autoComplete={extra.type === 'password' ? 'new-password' : 'off'}
      error={refused.has(key)}
      helperText={refused.has(key) ? (refused.get(key) ?? t('This value was refused')) : extra.helper}
      slotProps={{ htmlInput: { maxLength: MAX_LENGTH[key] ?? 512 } }}
    />
  );
  const saml = form.type === 'saml';
  const certs = answer.data.sso?.type === 'saml' ? answer.data.sso.idp_certs : [];
  const submit = () => {
    setSaved(false);
    save.mutate(
      {
        account_id: account.uuid,
        type: form.type,
        enabled: form.enabled ? 1 : 0,
        display_name: form.display_name,
        issuer: form.issuer,
        client_id: form.client_id,
        ...(saml
          ? {
              // Blank metadata or certificate keeps what the server read before.
              ...(form.idp_metadata.trim() ? { idp_metadata: form.idp_metadata } : {}),
              ...(form.idp_cert.trim() ? { idp_cert: form.idp_cert } : {}),
              entry_point: form.entry_point,
            }
          : {
              ...(form.client_secret ? { client_secret: form.client_secret } : {}),
              scopes: form.scopes,
            }),
        claim_email: form.claim_email,
        claim_first: form.claim_first,
        claim_last: form.claim_last,
        claim_roles: form.claim_roles,
        role_map: form.role_map.trim() || '[]',
        domains: form.domains,
        jit: form.jit ? 1 : 0,
        default_role_id: form.default_role_id,
        require_sso: form.require_sso ? 1 : 0,
        break_glass_email: form.break_glass_email,
      },
      {
        onSuccess: (next) => {
          setForm(formOf(next.sso));
          setSaved(true);
        },
      },
    );
  };

  return (
    <PagePanel title={t('Single sign-on')}>
      <Stack spacing={2} sx={{ maxWidth: 720 }}>
        <ToggleButtonGroup
          exclusive
          color="primary"
          value={form.type}
          aria-label={t('Protocol')}
          onChange={(_e, type: SsoType | null) => {
            if (type) {
              setSaved(false);
              setForm(switchType(form, type, answer.data.sso));
            }
          }}
        >
          <ToggleButton value="oidc">{t('OpenID Connect')}</ToggleButton>
          <ToggleButton value="saml">{t('SAML 2.0')}</ToggleButton>
        </ToggleButtonGroup>
        {saml ? (
          <SamlRegistration sp={answer.data.saml} />
        ) : (
          <Alert severity="info">
            {t(
              'Members sign in with the hospital’s OpenID Connect provider. Register this redirect URI there:',
            )}{' '}
            <Box component="code" sx={{ wordBreak: 'break-all' }}>
              {answer.data.redirect_uri}
            </Box>
          </Alert>
        )}
        <FormControlLabel
          control={<Checkbox checked={form.enabled} onChange={(e) => change('enabled', e.target.checked)} />}
          label={t('Sign-in with this provider is on')}
        />
        <Typography variant="subtitle1">{saml ? t('Identity provider') : t('Provider')}</Typography>
        {text('display_name', t('Name shown on the sign-in page'))}
        {saml ? (
          <>
            {text('idp_metadata', t('Identity provider metadata (XML)'), {
              rows: 3,
              helper: t('Paste the federation metadata, or fill in the sign-on URL and certificate below'),
            })}
            {text('entry_point', t('Sign-on URL'), { helper: t('Starting with https://') })}
            {text('idp_cert', t('Signing certificate (PEM)'), {
              rows: 2,
              helper: certs.length
                ? t('Leave empty to keep the certificates in use')
                : t('-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----'),
            })}
            {certs.map((c) => (
              <Alert key={c.sha256} severity="success" icon={false}>
                <Typography variant="body2">
                  {t('Certificate in use: {{subject}}', { subject: c.subject })}
                </Typography>
                <Typography variant="body2">
                  {t('Valid until {{date}}', { date: c.not_after.slice(0, 10) })}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                  {t('SHA-256 fingerprint: {{value}}', { value: c.sha256 })}
                </Typography>
              </Alert>
            ))}
            {text('issuer', t('Identity provider entity ID'), {
              helper: t('Read from the metadata; each assertion’s issuer must match it'),
            })}
            {text('client_id', t('This service’s entity ID'), {
              helper: t('Leave as it is unless the identity provider already knows another'),
            })}
          </>
        ) : (
          <>
            {text('issuer', t('Issuer URL'), { helper: t('The provider’s address, starting with https://') })}
            {text('client_id', t('Client ID'))}
            {text('client_secret', t('Client secret'), {
              type: 'password',
              helper: secretSet ? t('A secret is set: leave empty to keep it') : t('No secret is set'),
            })}
            {text('scopes', t('Scopes'), { helper: t('Separated by spaces, with openid') })}
          </>
        )}
        {text('domains', t('E-mail domains that sign in here'), { helper: t('Separated by commas') })}
        <Typography variant="subtitle1">{saml ? t('Attributes') : t('Claims')}</Typography>
        {text('claim_email', saml ? t('Attribute with the e-mail') : t('Claim with the e-mail'))}
        {text('claim_first', saml ? t('Attribute with the first name') : t('Claim with the first name'))}
        {text('claim_last', saml ? t('Attribute with the last name') : t('Claim with the last name'))}
        {text(
          'claim_roles',
          saml ? t('Attribute with roles or groups (optional)') : t('Claim with roles (optional)'),
        )}
        {text('role_map', t('Role mapping (JSON)'), {
          helper: t('For example [{"value": "radiology", "role_id": "…", "group_id": "…"}]'),
        })}
        <Typography variant="subtitle1">{t('Accounts and passwords')}</Typography>
        <FormControlLabel
          control={<Checkbox checked={form.jit} onChange={(e) => change('jit', e.target.checked)} />}
          label={t('Create users on their first sign-in')}
        />
        <TextField
          select
          label={t('Role of new users')}
          value={form.default_role_id}
          onChange={(e) => change('default_role_id', e.target.value)}
          fullWidth
          // "None" shown as chosen rather than an empty box under the label.
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          error={refused.has('default_role_id')}
          helperText={refused.has('default_role_id') ? refused.get('default_role_id') : undefined}
        >
          <MenuItem value="">{t('None')}</MenuItem>
          {(roles.data ?? []).map((r) => (
            <MenuItem key={r.uuid} value={r.uuid}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Checkbox checked={form.require_sso} onChange={(e) => change('require_sso', e.target.checked)} />
          }
          label={t('Require single sign-on (no password sign-in)')}
        />
        {text('break_glass_email', t('Admin who may still sign in with a password (e-mail)'))}
        {save.isError && refused.size === 0 && <UnexpectedErrorAlert />}
        {save.isError && refused.size > 0 && (
          <Alert severity="error">{t('The settings were not saved: check the fields marked.')}</Alert>
        )}
        {saved && <Alert severity="success">{t('Saved')}</Alert>}
        <Box>
          <Button variant="contained" onClick={submit} disabled={save.isPending}>
            {t('Save')}
          </Button>
        </Box>
      </Stack>
    </PagePanel>
  );
}
