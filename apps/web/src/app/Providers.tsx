import type { ReactNode } from 'react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { theme } from './theme';
import { useLocalizedTheme } from './use-localized-theme';

/**
 * What every page needs. The query cache comes with every page but sign-in (QueryLayout), the
 * snackbars with the inbox frame (app/shell/InboxShell.tsx).
 */
export function Providers({ children }: { children: ReactNode }) {
  const localized = useLocalizedTheme(theme);
  return (
    <ThemeProvider theme={localized}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
