import { useState } from 'react';
import { TextField } from '@mui/material';
import { LANGUAGES, LANGUAGE_NAMES, browserLanguage, isLanguage, useTranslation } from '../../../lib/i18n';
import { applyLanguageChoice, type LanguageChoice } from '../../../lib/language-preference';
import { useSaveLanguage } from '../api/profile';

/**
 * The display language (Account settings, Profile). It applies at once and is saved with the
 * user (user/set language), without the form's Save: a choice to confirm in a language the user may
 * not read would be a trap. '' follows the browser.
 */
export function LanguageField({ saved }: { saved: string }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<LanguageChoice>(isLanguage(saved) ? saved : '');
  const save = useSaveLanguage();
  const choose = (next: LanguageChoice) => {
    setChoice(next);
    void applyLanguageChoice(next);
    save.mutate(next);
  };
  return (
    <TextField
      select
      label={t('Language')}
      value={choice}
      onChange={(e) => choose(e.target.value as LanguageChoice)}
      error={save.isError}
      helperText={save.isError ? t('The language was not saved') : undefined}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      <option value="">
        {t('Browser language ({{language}})', { language: LANGUAGE_NAMES[browserLanguage()] })}
      </option>
      {LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </TextField>
  );
}
