import { useEffect, useState } from 'react';
import type { DayPickerLocale } from 'react-day-picker';
import { useTranslation, type Language } from './i18n';

/** The date picker's texts per language, each in its own chunk like the app's own tables. */
const loaders: Readonly<Record<Exclude<Language, 'en'>, () => Promise<{ default: DayPickerLocale }>>> = {
  fr: () => import('../locales/day-picker-fr'),
  es: () => import('../locales/day-picker-es'),
};

/**
 * The date picker's months, weekdays and labels in the current language (undefined: its English
 * default, or while the language's texts load).
 */
export function useDayPickerLocale(): DayPickerLocale | undefined {
  const { language } = useTranslation();
  const [loaded, setLoaded] = useState<{ language: Language; locale: DayPickerLocale } | null>(null);
  useEffect(() => {
    if (language === 'en') return;
    let current = true;
    void loaders[language]().then((module) => {
      if (current) setLoaded({ language, locale: module.default });
    });
    return () => {
      current = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.locale : undefined;
}
