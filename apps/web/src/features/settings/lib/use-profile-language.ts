import { useEffect } from 'react';
import { isLanguage } from '../../../lib/i18n';
import { applyLanguageChoice } from '../../../lib/language-preference';

/**
 * Once the signed-in user's profile is read, its language applies (and becomes this device's choice,
 * so the next sign-in page speaks it too); '' follows the browser. Undefined: not read yet.
 */
export function useProfileLanguage(language: string | undefined): void {
  useEffect(() => {
    if (language === undefined) return;
    void applyLanguageChoice(isLanguage(language) ? language : '');
  }, [language]);
}
