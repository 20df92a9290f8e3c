import { useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DatePreferencesContext } from '../../../lib/date-preferences';
import { DEFAULT_DATE_PREFERENCES } from '../../../lib/format';
import { profileQuery } from '../api/profile';
import { useProfileLanguage } from '../lib/use-profile-language';

/**
 * Gives every page of the session the user's date format and time zone. It never holds the page
 * back: until the profile arrives (or if it cannot be read) dates show in the default format.
 * The profile's language applies from here too, for every page of the session.
 */
export function DatePreferencesProvider({ children }: { children: ReactNode }) {
  const profile = useQuery(profileQuery());
  useProfileLanguage(profile.data?.language);
  const dateFormat = profile.data?.date_format ?? DEFAULT_DATE_PREFERENCES.dateFormat;
  const timeZone = profile.data?.time_zone ?? null;
  const preferences = useMemo(() => ({ dateFormat, timeZone }), [dateFormat, timeZone]);
  return <DatePreferencesContext.Provider value={preferences}>{children}</DatePreferencesContext.Provider>;
}
