import type { ReactNode } from 'react';
import { Paper, Typography } from '@mui/material';

/** A titled panel in the dashboard content area. */
export function PagePanel({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ m: 2, p: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
