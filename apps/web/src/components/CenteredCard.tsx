import type { ReactNode } from 'react';
import { Box, Paper, Typography } from '@mui/material';

/**
 * The narrow card the sign-in, recovery and error pages sit in; `maxWidth` widens it for a page
 * with a table (the request-link upload).
 */
export function CenteredCard({
  title,
  children,
  maxWidth = 420,
}: {
  title: string;
  children: ReactNode;
  maxWidth?: number;
}) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}
    >
      <Paper elevation={2} sx={{ width: '100%', maxWidth, p: 4 }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
