import { useState } from 'react';
import { TextField } from '@mui/material';
import { LANGUAGES, LANGUAGE_NAMES, browserLanguage, useTranslation } from '../../../lib/i18n';
import {
  applyLanguageChoice,
  deviceLanguageChoice,
  type LanguageChoice,
} from '../../../lib/language-preference';

/**
 * The display language (Account settings, Profile). It applies at once, without Save: a choice the
 * user has to confirm in a language they may not read would be a trap. '' follows the browser.
 */
export function LanguageField() {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<LanguageChoice>(deviceLanguageChoice);
  const choose = (next: LanguageChoice) => {
    setChoice(next);
    void applyLanguageChoice(next);
  };
  return (
    <TextField
      select
      label={t('Language')}
      value={choice}
      onChange={(e) => choose(e.target.value as LanguageChoice)}
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
