import { createContext, useContext, useMemo } from 'react';
import { DEFAULT_DATE_PREFERENCES, formatDicomDate, formatTimestamp, type DatePreferences } from './format';

/**
 * The signed-in user's date format and time zone (Account settings, Profile). Pages outside a
 * session (sign-in, public links) get the defaults.
 */
export const DatePreferencesContext = createContext<DatePreferences>(DEFAULT_DATE_PREFERENCES);

/** Date formatters bound to the user's preferences: `day` for DICOM dates, `timestamp` for ISO times. */
export function useDateDisplay() {
  const preferences = useContext(DatePreferencesContext);
  return useMemo(
    () => ({
      day: (value: string | null | undefined) => formatDicomDate(value, preferences.dateFormat),
      timestamp: (value: string | null | undefined) => formatTimestamp(value, preferences),
      format: preferences.dateFormat,
    }),
    [preferences],
  );
}
