import type { ReactNode } from 'react';
import { TableContainer } from '@mui/material';
import { ScrollCueFrame, useScrollCue } from './ScrollCueFrame';

import { TABLE_MAX_HEIGHT } from './table-sizes';

/**
 * The frame of a product table: at most 455 px high, scrolling both ways inside itself, so a table
 * wider than its pane (Select Exams, 1190 px) keeps every column reachable with a scroll bar instead
 * of being cut. `minWidth: 0` lets it shrink inside flex and grid parents, whose children otherwise
 * grow to their content and push the scroll bar out of the window. A shadow on a side shows that
 * columns lie that way. Use with `<Table stickyHeader>`.
 */
export function ScrollTable({ label, children }: { label?: string; children: ReactNode }) {
  const { ref, cue } = useScrollCue<HTMLDivElement>();
  return (
    <ScrollCueFrame cue={cue}>
      <TableContainer
        ref={ref}
        role="region"
        aria-label={label}
        tabIndex={0}
        sx={{
          maxHeight: TABLE_MAX_HEIGHT,
          maxWidth: '100%',
          minWidth: 0,
          overflow: 'auto',
        }}
      >
        {children}
      </TableContainer>
    </ScrollCueFrame>
  );
}
