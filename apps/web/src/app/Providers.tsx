import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { SnackbarProvider } from 'notistack';
import { SNACKBAR_MAX, SNACKBAR_MS } from '@imaging-inbox/contract';
import { createQueryClient } from './query-client';
import { theme } from './theme';

/** Snackbars: at most 3 visible, 4000 ms, top centre (SPEC.md section 9). */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <SnackbarProvider
          maxSnack={SNACKBAR_MAX}
          autoHideDuration={SNACKBAR_MS}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        >
          {children}
        </SnackbarProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
