import type { ReactNode } from 'react';
import { IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { SxProps, Theme } from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import { useTranslation } from '../lib/i18n';

export interface AdminColumn<T> {
  /** The header's text, translated. */
  label: string;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right';
  sx?: SxProps<Theme>;
}

export interface AdminDelete<T> {
  /** The delete button's accessible name for a row, translated. */
  label: (row: T) => string;
  /** A question to confirm before deleting, translated; none deletes at once. */
  confirm?: (row: T) => string;
  disabled?: (row: T) => boolean;
  onDelete: (row: T) => void;
}

interface Props<T> {
  /** The table's accessible name, translated. */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly AdminColumn<T>[];
  /** Shown instead of the table when there is no row, translated. */
  emptyText: string;
  /** Extra buttons of a row, before its delete button. */
  actions?: (row: T) => ReactNode;
  remove?: AdminDelete<T>;
  sx?: SxProps<Theme>;
  /** The header over the row buttons, translated (default: Actions). */
  actionsLabel?: string;
  /** A row's own look (a disabled one dimmed). */
  rowSx?: (row: T) => SxProps<Theme> | undefined;
}

/**
 * The administration pages' list: a small table of named columns, a row's own actions and a delete
 * button that asks first, or a line saying there is nothing yet.
 */
export function AdminTable<T>({
  label,
  rows,
  rowKey,
  columns,
  emptyText,
  actions,
  remove,
  sx,
  rowSx,
  actionsLabel,
}: Props<T>) {
  const { t } = useTranslation();
  if (rows.length === 0) return <Typography color="text.secondary">{emptyText}</Typography>;
  const hasActions = Boolean(actions || remove);
  return (
    <Table size="small" aria-label={label} sx={sx}>
      <TableHead>
        <TableRow>
          {columns.map((c, i) => (
            <TableCell key={i} align={c.align}>
              {c.label}
            </TableCell>
          ))}
          {hasActions && <TableCell align="right">{actionsLabel ?? t('Actions')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)} sx={rowSx?.(row)}>
            {columns.map((c, i) => (
              <TableCell key={i} align={c.align} sx={c.sx}>
                {c.cell(row)}
              </TableCell>
            ))}
            {hasActions && (
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {actions?.(row)}
                {remove && (
                  <IconButton
                    aria-label={remove.label(row)}
                    disabled={remove.disabled?.(row)}
                    onClick={() => {
                      const question = remove.confirm?.(row);
                      if (question === undefined || window.confirm(question)) remove.onDelete(row);
                    }}
                  >
                    <Delete fontSize="small" />
                  </IconButton>
                )}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
