import { useState } from 'react';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { ACCOUNT_LANGUAGE_SETTING, type Language } from '@imaging-inbox/contract';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useSetAccountLanguage } from '../api/account-language';

/**
 * The account's default language (account admins): e-mails to its users who chose no language of
 * their own are written in it. Unlike the user's own language it does not change this screen, so it
 * waits for Save.
 */
export function AccountLanguageForm({
  accountId,
  settings,
}: {
  accountId: string;
  settings: Record<string, string>;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const saved = settings[ACCOUNT_LANGUAGE_SETTING];
  const [choice, setChoice] = useState<Language | ''>(isLanguage(saved) ? saved : '');
  const save = useSetAccountLanguage(accountId);
  const refusal = save.isError ? errorBody(save.error) : undefined;
  return (
    <Stack component="section" spacing={1.5} sx={{ mb: 3 }} aria-labelledby="account-language-title">
      <Typography id="account-language-title" variant="subtitle1" component="h2">
        {t('Default language of the account')}
      </Typography>
      <Typography color="text.secondary" variant="body2">
        {t('E-mails to users who chose no language of their own are written in it.')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <TextField
          select
          size="small"
          label={t('Default language of the account')}
          value={choice}
          onChange={(e) => setChoice(e.target.value as Language | '')}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 240 }}
        >
          <option value="">{t('Not chosen (English)')}</option>
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </TextField>
        <Button
          variant="outlined"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(choice, {
              onSuccess: () => enqueueSnackbar(t('Default language saved'), { variant: 'success' }),
            })
          }
        >
          {t('Save')}
        </Button>
      </Stack>
      {save.isError && (
        <Alert severity="error">
          {typeof refusal?.error_data === 'string' ? refusal.error_data : t('The language was not saved')}
        </Alert>
      )}
    </Stack>
  );
}
