import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithRouter } from '../../../test/render';
import { StudyPagination } from './StudyPagination';

const noop = () => {};

/** The "1–50 of 50" range text MUI draws. */
const range = (container: HTMLElement) =>
  container.querySelector<HTMLElement>('.MuiTablePagination-displayedRows')!;

describe('StudyPagination', () => {
  it('counts nothing while the page loads: the range is hidden, not a guessed "1–50 of 50"', () => {
    const { container } = renderWithRouter(
      <StudyPagination
        total={undefined}
        page={1}
        rows={50}
        more={false}
        shown={undefined}
        onPage={noop}
        onRows={noop}
      />,
    );
    expect(getComputedStyle(range(container)).visibility).toBe('hidden');
  });

  it('before the count arrives, ranges over the exams shown and ends there when there are no more', () => {
    const { container } = renderWithRouter(
      <StudyPagination
        total={undefined}
        page={1}
        rows={50}
        more={false}
        shown={7}
        onPage={noop}
        onRows={noop}
      />,
    );
    expect(getComputedStyle(range(container)).visibility).toBe('visible');
    expect(range(container).textContent).toMatch(/1–7\D+7/);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /next page/i }).disabled).toBe(true);
  });

  it('shows the total once it is known', () => {
    const { container } = renderWithRouter(
      <StudyPagination total={120} page={2} rows={50} more shown={50} onPage={noop} onRows={noop} />,
    );
    expect(range(container).textContent).toMatch(/51–100\D+120/);
  });
});
