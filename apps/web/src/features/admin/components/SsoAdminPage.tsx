import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { AccountSso } from '@imaging-inbox/contract';
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
}

function formOf(sso: AccountSso | null): SsoForm {
  return {
    enabled: sso ? sso.enabled === 1 : true,
    display_name: sso?.display_name ?? '',
    issuer: sso?.issuer ?? '',
    client_id: sso?.client_id ?? '',
    // Write-only: the server answers only whether one is stored; empty keeps it.
    client_secret: '',
    scopes: sso?.scopes ?? 'openid email profile',
    claim_email: sso?.claim_email ?? 'email',
    claim_first: sso?.claim_first ?? 'given_name',
    claim_last: sso?.claim_last ?? 'family_name',
    claim_roles: sso?.claim_roles ?? '',
    role_map: sso?.role_map.length ? JSON.stringify(sso.role_map) : '',
    domains: sso?.domains.join(', ') ?? '',
    jit: sso?.jit === 1,
    default_role_id: sso?.default_role_id ?? '',
    require_sso: sso?.require_sso === 1,
    break_glass_email: sso?.break_glass_email ?? '',
  };
}

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
 * Administration → Single sign-on: the account's OpenID Connect provider (decision 0066), read and
 * saved whole through account/sso/get|set. Only account admins see it; the server checks again.
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
  const text = (key: TextKey, label: string, extra: { helper?: string; type?: string } = {}) => (
    <TextField
      label={label}
      value={form[key]}
      onChange={(e) => change(key, e.target.value)}
      fullWidth
      type={extra.type}
      autoComplete={extra.type === 'password' ? 'new-password' : 'off'}
      error={refused.has(key)}
      helperText={refused.has(key) ? (refused.get(key) ?? t('This value was refused')) : extra.helper}
      slotProps={{ htmlInput: { maxLength: key === 'role_map' ? 8000 : 512 } }}
    />
  );
  const submit = () => {
    setSaved(false);
    save.mutate(
      {
        account_id: account.uuid,
        type: 'oidc',
        enabled: form.enabled ? 1 : 0,
        display_name: form.display_name,
        issuer: form.issuer,
        client_id: form.client_id,
        ...(form.client_secret ? { client_secret: form.client_secret } : {}),
        scopes: form.scopes,
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
        <Alert severity="info">
          {t(
            'Members sign in with the hospital’s OpenID Connect provider. Register this redirect URI there:',
          )}{' '}
          <Box component="code" sx={{ wordBreak: 'break-all' }}>
            {answer.data.redirect_uri}
          </Box>
        </Alert>
        <FormControlLabel
          control={<Checkbox checked={form.enabled} onChange={(e) => change('enabled', e.target.checked)} />}
          label={t('Sign-in with this provider is on')}
        />
        <Typography variant="subtitle1">{t('Provider')}</Typography>
        {text('display_name', t('Name shown on the sign-in page'))}
        {text('issuer', t('Issuer URL'), { helper: t('The provider’s address, starting with https://') })}
        {text('client_id', t('Client ID'))}
        {text('client_secret', t('Client secret'), {
          type: 'password',
          helper: secretSet ? t('A secret is set: leave empty to keep it') : t('No secret is set'),
        })}
        {text('scopes', t('Scopes'), { helper: t('Separated by spaces, with openid') })}
        {text('domains', t('E-mail domains that sign in here'), { helper: t('Separated by commas') })}
        <Typography variant="subtitle1">{t('Claims')}</Typography>
        {text('claim_email', t('Claim with the e-mail'))}
        {text('claim_first', t('Claim with the first name'))}
        {text('claim_last', t('Claim with the last name'))}
        {text('claim_roles', t('Claim with roles (optional)'))}
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
