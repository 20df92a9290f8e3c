import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { render as renderBare, screen } from '@testing-library/react';
import { Table, TableBody, TableCell, TableHead, TableRow, ThemeProvider } from '@mui/material';
import { theme } from '../app/theme';
import { AdminTable } from './AdminTable';
import { ScrollTable } from './ScrollTable';
import { TABLE_HEADER_HEIGHT, TABLE_MAX_HEIGHT, TABLE_ROW_HEIGHT } from './table-sizes';

/** As the app renders: under its theme, whose rule gives every table row its height. */
const render = (element: ReactElement) => renderBare(<ThemeProvider theme={theme}>{element}</ThemeProvider>);

const rows = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`);

function heights(table: HTMLElement) {
  const [head, ...body] = Array.from(table.querySelectorAll('tr'));
  return {
    header: getComputedStyle(head!).height,
    rows: [...new Set(body.map((tr) => getComputedStyle(tr).height))],
  };
}

describe('table sizes', () => {
  it('are the spec limits: header 50, row 45, at most 455 px high (the header and nine rows)', () => {
    expect([TABLE_HEADER_HEIGHT, TABLE_ROW_HEIGHT, TABLE_MAX_HEIGHT]).toEqual([50, 45, 455]);
    expect(TABLE_HEADER_HEIGHT + 9 * TABLE_ROW_HEIGHT).toBe(TABLE_MAX_HEIGHT);
  });

  it('give a scrolling product table its header and row heights and its maximum height', () => {
    render(
      <ScrollTable label="Results">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r}>
                <TableCell>{r}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollTable>,
    );
    const frame = screen.getByRole('region', { name: 'Results' });
    expect(getComputedStyle(frame).maxHeight).toBe('455px');
    expect(heights(frame)).toEqual({ header: '50px', rows: ['45px'] });
  });

  it('give every other table, the administration lists included, the same header and row heights', () => {
    render(
      <AdminTable
        label="Users"
        rows={rows}
        rowKey={(r) => r}
        columns={[{ label: 'Name', cell: (r) => r }]}
        emptyText="None"
      />,
    );
    expect(heights(screen.getByRole('table', { name: 'Users' }))).toEqual({
      header: '50px',
      rows: ['45px'],
    });
  });
});
