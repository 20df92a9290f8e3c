import { useEffect, useMemo, useState } from 'react';
import { createTheme, type Theme } from '@mui/material/styles';
import type { Localization } from '@mui/material/locale';
import { useTranslation, type Language } from '../lib/i18n';

/** MUI's built-in texts per language, each in its own chunk like the app's own tables. */
const loaders: Readonly<Record<Exclude<Language, 'en'>, () => Promise<{ default: Localization }>>> = {
  fr: () => import('../locales/mui-fr'),
  es: () => import('../locales/mui-es'),
};

/**
 * The theme with MUI's component texts (pagination "1–10 of 25", "No options", close buttons) in
 * the current language; English is MUI's default and needs nothing loaded.
 */
export function useLocalizedTheme(theme: Theme): Theme {
  const { language } = useTranslation();
  const [localization, setLocalization] = useState<{ language: Language; texts: Localization } | null>(null);
  useEffect(() => {
    if (language === 'en') return;
    let current = true;
    void loaders[language]().then((module) => {
      if (current) setLocalization({ language, texts: module.default });
    });
    return () => {
      current = false;
    };
  }, [language]);
  const texts = localization?.language === language ? localization.texts : null;
  return useMemo(() => (texts ? createTheme(theme, texts) : theme), [theme, texts]);
}
