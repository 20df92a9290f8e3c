import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Checkbox, FormControlLabel, Stack, TextField } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { REQUEST_STUDY_DEFAULTS, requestStudySchema, type RequestStudyValues } from '../lib/request-schema';
import { DurationHints } from './DurationHints';
import { ProfileSelect } from '../../privacy';

interface Props {
  /** Group missing or not permitted: every field and the button stay disabled. */
  disabled: boolean;
  loading: boolean;
  onSubmit: (values: RequestStudyValues) => void;
  /** The account whose de-identification profiles the link may apply; absent: no such choice. */
  accountId?: string | undefined;
}

/** The link request form of SPEC.md sections 3 and 5; it validates on every change. */
export function RequestStudyForm({ disabled, loading, onSubmit, accountId }: Props) {
  const { t } = useTranslation();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors, isValid },
  } = useForm<RequestStudyValues>({
    mode: 'onChange',
    resolver: zodResolver(requestStudySchema),
    defaultValues: REQUEST_STUDY_DEFAULTS,
  });
  const message = (m?: string) => (m ? t(m) : undefined);

  return (
    <Box component="form" noValidate aria-label={t('Request Study')} onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <TextField
          label={t('Email')}
          type="email"
          required
          disabled={disabled}
          error={!!errors.email}
          helperText={message(errors.email?.message)}
          {...register('email')}
        />
        <Controller
          control={control}
          name="notifyOfLinkUse"
          render={({ field }) => (
            <FormControlLabel
              disabled={disabled}
              label={t('Notify me when the link is used')}
              control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
            />
          )}
        />
        <TextField
          label={t('Maximum hits')}
          required
          disabled={disabled}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          error={!!errors.maximumHits}
          helperText={message(errors.maximumHits?.message)}
          {...register('maximumHits')}
        />
        <TextField
          label={t('Maximum duration (minutes)')}
          required
          disabled={disabled}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          error={!!errors.maximumDuration}
          helperText={message(errors.maximumDuration?.message)}
          {...register('maximumDuration')}
        />
        <DurationHints
          disabled={disabled}
          onPick={(minutes) =>
            setValue('maximumDuration', String(minutes), { shouldValidate: true, shouldDirty: true })
          }
        />
        <TextField
          label={t('Link password')}
          type="password"
          autoComplete="new-password"
          disabled={disabled}
          {...register('linkPassword')}
        />
        <TextField
          label={t('Study description')}
          multiline
          minRows={2}
          disabled={disabled}
          {...register('studyDescription')}
        />
        <TextField
          label={t('Mobile phone')}
          type="tel"
          autoComplete="off"
          disabled={disabled}
          error={!!errors.mobilePhone}
          helperText={
            message(errors.mobilePhone?.message) ??
            t('Shown with the request so you can reach them; no text message is sent')
          }
          {...register('mobilePhone')}
        />
        <TextField
          label={t('Share description')}
          multiline
          minRows={2}
          maxRows={3}
          disabled={disabled}
          helperText={t('Goes with the exams uploaded through the link')}
          {...register('shareDescription')}
        />
        {accountId && (
          <Controller
            name="anonymizationId"
            control={control}
            render={({ field }) => (
              <ProfileSelect
                accountId={accountId}
                value={field.value}
                onChange={field.onChange}
                label={t('De-identify uploads with')}
                disabled={disabled}
                helperText={
                  field.value
                    ? t(
                        'Only the de-identified copy is stored; files that may show burned-in text are refused unless the profile keeps them, and documents are not taken.',
                      )
                    : undefined
                }
              />
            )}
          />
        )}
        <Button type="submit" variant="contained" disabled={disabled || !isValid} loading={loading}>
          {t('Request Study')}
        </Button>
      </Stack>
    </Box>
  );
}
