import { useEffect, useMemo } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  DATE_FORMATS,
  MESSAGES,
  PROFILE_MESSAGES,
  SUCCESS_BANNER_MS,
  normalizeProfile,
  profileProblems,
  type ProfileField,
  type UserProfile,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { dateFormatHint } from '../../../lib/date-format-hint';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorBody } from '../../../lib/api-error';
import { useExpiringState } from '../../../lib/use-expiring-state';
import { profileQuery, useSaveProfile } from '../api/profile';
import { LanguageField } from './LanguageField';

/** The form holds every field as text; the placeholder time zone is the empty string. */
type ProfileForm = Record<ProfileField, string>;

function formValues(profile: UserProfile): ProfileForm {
  return {
    first: profile.first,
    last: profile.last,
    time_zone: profile.time_zone ?? '',
    date_format: profile.date_format,
    mobile_phone: profile.mobile_phone ?? '',
    share_code: profile.share_code ?? '',
    share_description: profile.share_description ?? '',
  };
}

/** The same rules the server applies (packages/contract/src/profile.ts), checked on every change. */
const profileResolver: Resolver<ProfileForm> = (values) => {
  const problems = profileProblems(normalizeProfile(values));
  const errors = Object.fromEntries(
    Object.entries(problems).map(([field, message]) => [field, { type: 'rule', message }]),
  );
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

/** Whether the browser knows the zone list (every current browser does). */
function timeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
}

/**
 * Account settings, Profile tab (SPEC "Profile"): names, time zone, date format, mobile phone,
 * share code and description. Clear goes back to the loaded values; Save is enabled only when the
 * form is valid and changed. The banner shows for a few seconds after a save.
 */
/**
 * The fields are uncontrolled (react-hook-form), so a reset (Clear) changes their values without the
 * label noticing: a floating label would then be drawn over the value. Labels stay above instead.
 */
const SHRUNK_LABEL = { inputLabel: { shrink: true } } as const;

export function ProfileTab() {
  const profile = useQuery(profileQuery());
  if (profile.isPending) return <Loading />;
  if (profile.isError) return <UnexpectedErrorAlert />;
  return <ProfileFormView profile={profile.data} />;
}

function ProfileFormView({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const save = useSaveProfile();
  const [banner, setBanner] = useExpiringState<'saved' | 'failed'>(() => SUCCESS_BANNER_MS);
  const loaded = useMemo(() => formValues(profile), [profile]);
  const shareCodeEditable = profile.share_code_editable !== false;
  const zones = useMemo(() => {
    const list = timeZones();
    // A stored zone the browser does not list (an alias such as US/Eastern) must stay selectable.
    return profile.time_zone && !list.includes(profile.time_zone) ? [profile.time_zone, ...list] : list;
  }, [profile.time_zone]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid, isDirty },
  } = useForm<ProfileForm>({ mode: 'onChange', resolver: profileResolver, defaultValues: loaded });

  useEffect(() => reset(loaded), [loaded, reset]);

  const onSubmit = handleSubmit((values) => {
    setBanner(null);
    // A share code the user may not change is sent as loaded (a disabled field has no value).
    const sent = shareCodeEditable
      ? values
      : { ...values, share_code: loaded.share_code, share_description: loaded.share_description };
    save.mutate(normalizeProfile(sent), {
      onSuccess: () => setBanner('saved'),
      onError: (error) => {
        setBanner('failed');
        const body = errorBody(error);
        if (body?.error_type === 'INVALID_TIME_ZONE') {
          setError('time_zone', { message: PROFILE_MESSAGES.timeZoneInvalid });
        } else if (
          body?.error_type === 'INVALID_FIELD' &&
          body.error_subtype &&
          body.error_subtype in loaded
        ) {
          const text = typeof body.error_data === 'string' ? body.error_data : MESSAGES.profileFailed;
          setError(body.error_subtype as ProfileField, { message: text });
        }
      },
    });
  });
  const message = (field: ProfileField) => (errors[field]?.message ? t(errors[field].message) : undefined);

  return (
    <Box component="form" noValidate aria-label={t('Profile')} onSubmit={onSubmit}>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        {banner === 'saved' && <Alert severity="success">{t(MESSAGES.profileSaved)}</Alert>}
        {banner === 'failed' && <Alert severity="error">{t(MESSAGES.profileFailed)}</Alert>}
        <LanguageField saved={profile.language} />
        <TextField
          label={t('First name')}
          required
          autoComplete="given-name"
          error={!!errors.first}
          helperText={message('first')}
          slotProps={SHRUNK_LABEL}
          {...register('first')}
        />
        <TextField
          label={t('Last name')}
          required
          autoComplete="family-name"
          error={!!errors.last}
          helperText={message('last')}
          slotProps={SHRUNK_LABEL}
          {...register('last')}
        />
        <TextField
          select
          label={t('Time zone')}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          error={!!errors.time_zone}
          helperText={message('time_zone')}
          {...register('time_zone')}
        >
          <option value="">{t('select')}</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </TextField>
        <TextField
          select
          label={t('Date format')}
          required
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          error={!!errors.date_format}
          helperText={message('date_format')}
          {...register('date_format')}
        >
          {DATE_FORMATS.map((format) => (
            <option key={format} value={format}>
              {dateFormatHint(format)}
            </option>
          ))}
        </TextField>
        <TextField
          label={t('Mobile phone')}
          type="tel"
          autoComplete="tel"
          error={!!errors.mobile_phone}
          helperText={message('mobile_phone') ?? t('International format, for example +14155552671')}
          slotProps={SHRUNK_LABEL}
          {...register('mobile_phone')}
        />
        <TextField
          label={t('Share code')}
          error={!!errors.share_code}
          // Without user_modify_sharecode the server refuses a change: show the code, read-only.
          disabled={!shareCodeEditable}
          helperText={
            message('share_code') ??
            (shareCodeEditable
              ? t('Others can send exams to you with this code; they arrive in Shared with me.')
              : t('Your role does not let you change your share code.'))
          }
          slotProps={SHRUNK_LABEL}
          {...register('share_code')}
        />
        <TextField
          label={t('Share description')}
          multiline
          minRows={2}
          maxRows={3}
          error={!!errors.share_description}
          disabled={!shareCodeEditable}
          helperText={message('share_description')}
          slotProps={SHRUNK_LABEL}
          {...register('share_description')}
        />
        <Stack direction="row" spacing={1}>
          <Button onClick={() => reset(loaded)} disabled={!isDirty || save.isPending}>
            {t('Clear')}
          </Button>
          <Button type="submit" variant="contained" disabled={!isValid || !isDirty} loading={save.isPending}>
            {t('Save')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
