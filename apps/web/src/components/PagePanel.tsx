import type { ReactNode } from 'react';
import { Paper, Stack, Typography } from '@mui/material';

/**
 * A titled panel in the dashboard content area; `actions` (such as an Add button) sit on the
 * title's line, at its right.
 */
export function PagePanel({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ m: 2, p: 3 }}>
      <Stack
        direction="row"
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}
      >
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {actions}
      </Stack>
      {children}
    </Paper>
  );
}
