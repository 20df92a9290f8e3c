import { useEffect, useState } from 'react';
import { DateLib, type DayPickerLocale } from 'react-day-picker';
import { enUS } from 'react-day-picker/locale';
import { useTranslation, type Language } from './i18n';

/** The date picker's texts per language, each in its own chunk like the app's own tables. */
const loaders: Readonly<Record<Exclude<Language, 'en'>, () => Promise<{ default: DayPickerLocale }>>> = {
  fr: () => import('../locales/day-picker-fr'),
  es: () => import('../locales/day-picker-es'),
};

/**
 * English as the picker's default, but a day button reads "Sunday 1 November 2026": the number the
 * button shows is a word of its name (WCAG 2.5.3, label in name), which "November 1st" is not.
 * French and Spanish already write the day as its number.
 */
const english: DayPickerLocale = {
  ...enUS,
  labels: {
    ...enUS.labels,
    labelDayButton: (date, modifiers, options, dateLib) => {
      let label = (dateLib ?? new DateLib(options)).format(date, 'EEEE d MMMM yyyy');
      if (modifiers.today) label = `Today, ${label}`;
      if (modifiers.selected) label = `${label}, selected`;
      return label;
    },
  },
};

/**
 * The date picker's months, weekdays and labels in the current language (English while the
 * language's texts load).
 */
export function useDayPickerLocale(): DayPickerLocale {
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
  return loaded?.language === language ? loaded.locale : english;
}
