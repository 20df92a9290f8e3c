import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { SearchBar } from '../../features/search';
import { Header } from './Header';
import { LeftNav } from './LeftNav';
import { useSnackbarsBelow } from './snackbar-offset';

/** Header, left navigation, the study search bar on top and the content area (SPEC.md section 2). */
export function DashboardLayout({ children }: { children: ReactNode }) {
  const searchArea = useSnackbarsBelow();
  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Header />
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        <LeftNav />
        <Box
          component="main"
          sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', bgcolor: 'grey.50' }}
        >
          <Box ref={searchArea}>
            <SearchBar />
          </Box>
          {/* Long pages (settings, the upload wizard) scroll here, under the header and search bar. */}
          <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column' }}>
            {children}
          </Box>
        </Box>
      </Box>
    </Box>
  );
}
